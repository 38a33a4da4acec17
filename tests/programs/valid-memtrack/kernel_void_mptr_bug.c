// check: valid-memsafety
// data-model: LP64
// malloc: never-fails
// expect: FALSE(valid-deref)
// Why: as kernel_void_mptr.c, but each item is freed before it is unlinked (line 50), so list_del reads the freed item (line 51).
#include <stdlib.h>
#include <stddef.h>

extern int __VERIFIER_nondet_int(void);

struct list_head { struct list_head *next, *prev; };

static void list_add(struct list_head *n, struct list_head *head) {
  struct list_head *next = head->next;
  next->prev = n;
  n->next = next;
  n->prev = head;
  head->next = n;
}

static void list_del(struct list_head *e) {
  e->next->prev = e->prev;
  e->prev->next = e->next;
}

#define container_of(ptr, type, member) ({ \
  void *__mptr = (void *)(ptr); ((type *)(__mptr - offsetof(type, member))); }) /* OK */

struct item {
  int key;
  int value;
  struct list_head link;
};

int main(void) {
  struct list_head *head = malloc(sizeof *head);
  head->next = head;
  head->prev = head;
  while (__VERIFIER_nondet_int()) {
    struct item *it = malloc(sizeof *it);
    it->key = __VERIFIER_nondet_int();
    list_add(&it->link, head);
  }
  for (struct list_head *p = head->next; p != head; p = p->next) {
    struct item *it = container_of(p, struct item, link);
    it->value = it->key;
  }
  while (head->next != head) {
    struct item *it = container_of(head->next, struct item, link);
    free(it); /* BUG: freed while still linked: list_del below reads it */
    list_del(&it->link);
  }
  free(head);
  return 0;
}
