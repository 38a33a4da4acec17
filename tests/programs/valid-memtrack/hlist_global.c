// check: valid-memsafety
// data-model: LP64
// malloc: never-fails
// expect: TRUE
// Why: as hlist.c, but the head is a global `struct hlist_head` (line 44), so the first node's `pprev` holds the address of the global's `first`; unlinking through `*pprev = next` (line 26) writes it.
#include <stdlib.h>
#include <stddef.h>

extern int __VERIFIER_nondet_int(void);

struct hlist_head { struct hlist_node *first; };
struct hlist_node { struct hlist_node *next, **pprev; };

static void hlist_add_head(struct hlist_node *n, struct hlist_head *h) {
  struct hlist_node *first = h->first;
  n->next = first;
  if (first)
    first->pprev = &n->next;
  h->first = n;
  n->pprev = &h->first;
}

static void hlist_del(struct hlist_node *n) {
  struct hlist_node *next = n->next;
  struct hlist_node **pprev = n->pprev;
  *pprev = next; /* OK: the previous node's next, or the head's first */
  if (next)
    next->pprev = pprev;
  n->next = NULL;
  n->pprev = NULL;
}

#define container_of(ptr, type, member) ({ \
  void *__mptr = (void *)(ptr); ((type *)(__mptr - offsetof(type, member))); })
#define hlist_entry_safe(ptr, type, member) ({ \
  struct hlist_node *____ptr = (ptr); ____ptr ? container_of(____ptr, type, member) : NULL; })

struct item {
  int key;
  struct hlist_node link;
  int value;
};

static struct hlist_head table = { .first = NULL };

int main(void) {
  struct hlist_head *head = &table;
  while (__VERIFIER_nondet_int()) {
    struct item *it = malloc(sizeof *it);
    it->key = __VERIFIER_nondet_int();
    it->value = 0;
    hlist_add_head(&it->link, head);
  }
  struct item *now = hlist_entry_safe(head->first, struct item, link);
  while (now) {
    struct item *after = hlist_entry_safe(now->link.next, struct item, link);
    if (now->key == 0) {
      hlist_del(&now->link);
      free(now);
    }
    now = after;
  }
  while (head->first) {
    struct item *it = container_of(head->first, struct item, link);
    hlist_del(&it->link);
    free(it);
  }
  return 0;
}
