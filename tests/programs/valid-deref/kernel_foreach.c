// check: valid-memsafety
// data-model: LP64
// expect: TRUE
// Why: a kernel-style table: elements with a name buffer and an embedded `struct list_head` are added with `list_add` and removed with `list_for_each_entry_safe` (GNU `typeof` and statement-expression `container_of`), each unlinked before it is freed (lines 43-44).
#include <stdlib.h>
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);

struct list_head { struct list_head *next, *prev; };
#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)
#define container_of(ptr, type, member) ({ \
        const typeof( ((type *)0)->member ) *__mptr = (ptr); \
        (type *)( (char *)__mptr - offsetof(type,member) );})
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_for_each_entry_safe(pos, n, head, member) \
  for (pos = list_entry((head)->next, typeof(*pos), member), \
       n = list_entry(pos->member.next, typeof(*pos), member); \
       &pos->member != (head); \
       pos = n, n = list_entry(n->member.next, typeof(*n), member))

static inline void __list_add(struct list_head *new, struct list_head *prev, struct list_head *next)
{ next->prev = new; new->next = next; new->prev = prev; prev->next = new; }
static inline void list_add(struct list_head *new, struct list_head *head) { __list_add(new, head, head->next); }
static inline void list_del(struct list_head *entry)
{ entry->next->prev = entry->prev; entry->prev->next = entry->next; entry->next = (void *)0; entry->prev = (void *)0; }

struct entry { int key; char name[12]; struct list_head list; };

static LIST_HEAD(table);

int main(void) {
  int i = 0;
  while (__VERIFIER_nondet_int()) {
    struct entry *e = calloc(1, sizeof(*e));
    if (!e) return 1;
    e->key = i++;
    e->name[0] = 'a';
    list_add(&e->list, &table);
  }
  struct entry *pos, *n;
  list_for_each_entry_safe(pos, n, &table, list) {
    list_del(&pos->list);
    free(pos);
  }
  return 0;
}
