// check: valid-memsafety
// data-model: LP64
// expect: TRUE
// Why: a list of groups, each owning a list of items of another struct through `items`; both lengths are unbounded. The groups are drained through the link itself (`groups->items = after` after freeing the head, line 41), then freed. Proving no item is lost needs reachability from the link of the cell `groups` names (`reach[next]<groups->items>`), focused when `groups` moves onto a group, so that its sub-list stays apart from the other groups' sub-lists.
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
    while (groups->items) {
      struct item *after = groups->items->next;
      free(groups->items);
      groups->items = after;
    }
    free(groups);
    groups = rest;
  }
  return 0;
}
