// check: valid-memsafety
// data-model: LP64
// expect: FALSE(valid-memtrack)
// Why: as sub_lists.c, but a group's items are drained only on some runs (line 38): otherwise the group is freed with its items still hanging off it (line 43), and they are lost.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct item {
  struct item *next;
  int value;
};

struct group {
  struct group *next;
  struct item *items;
};

int main(void) {
  struct group *groups = NULL;
  while (__VERIFIER_nondet_int()) {
    struct group *g = malloc(sizeof *g);
    if (!g)
      abort();
    g->items = NULL;
    while (__VERIFIER_nondet_int()) {
      struct item *it = malloc(sizeof *it);
      if (!it)
        abort();
      it->value = __VERIFIER_nondet_int();
      it->next = g->items;
      g->items = it;
    }
    g->next = groups;
    groups = g;
  }
  while (groups) {
    struct group *rest = groups->next;
    while (__VERIFIER_nondet_int() && groups->items) {
      struct item *after = groups->items->next;
      free(groups->items);
      groups->items = after;
    }
    free(groups);
    groups = rest;
  }
  return 0;
}
