// check: unreach-call
// data-model: LP64
// expect: TRUE
// Why: entries with key 7 are added to a static Linux-style list and visited with list_for_each_entry, whose first and last `pos` is the would-be entry around the head (line 35): only `&pos->list` is computed there, so no key other than 7 is ever read.
#include <stdlib.h>
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct list_head { struct list_head *next, *prev; };
#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)
#define container_of(ptr, type, member) ({ const typeof(((type *)0)->member) *__mptr = (ptr); (type *)((char *)__mptr - offsetof(type, member)); })
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_for_each_entry(pos, head, member) \
  for (pos = list_entry((head)->next, typeof(*pos), member); &pos->member != (head); \
       pos = list_entry(pos->member.next, typeof(*pos), member))
#define list_for_each_entry_safe(pos, n, head, member) \
  for (pos = list_entry((head)->next, typeof(*pos), member), n = list_entry(pos->member.next, typeof(*pos), member); \
       &pos->member != (head); pos = n, n = list_entry(n->member.next, typeof(*n), member))
static inline void __list_add(struct list_head *new, struct list_head *prev, struct list_head *next) {
  next->prev = new; new->next = next; new->prev = prev; prev->next = new; }
static inline void list_add(struct list_head *new, struct list_head *head) { __list_add(new, head, head->next); }
static inline void __list_del(struct list_head *prev, struct list_head *next) { next->prev = prev; prev->next = next; }
static inline void list_del(struct list_head *entry) { __list_del(entry->prev, entry->next); entry->next = NULL; entry->prev = NULL; }
struct entry { long key; void *payload; struct list_head list; };
static LIST_HEAD(table);
int main(void) {
  while (__VERIFIER_nondet_int()) {
    struct entry *e = malloc(sizeof *e);
    if (!e) return 1;
    e->key = 7; e->payload = NULL;
    list_add(&e->list, &table);
  }
  struct entry *pos, *n;
  list_for_each_entry(pos, &table, list)
    if (pos->key != 7) reach_error();
  list_for_each_entry_safe(pos, n, &table, list) {
    list_del(&pos->list);
    free(pos);
  }
  return 0;
}
