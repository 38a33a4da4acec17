// check: valid-memsafety
// expect: TRUE
// Why: a list of groups, each holding a list of members of the same struct through `sub` (the members' `sub` is never set); the groups are appended at the tail, then each group's members are freed before the group. One summary node holds the members of every group, so freeing a group with no members left keeps the rest reachable only if the tree focus splits the members its `next` reaches from those its `sub` reaches, and the first-step law of the tree closure says a group whose `sub` is NULL reaches the rest through `next`.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct item {
  struct item *next;
  struct item *sub;
};

static struct item *members(int n) {
  struct item *head = NULL;
  while (n-- > 0) {
    struct item *m = malloc(sizeof *m);
    if (!m)
      abort();
    m->next = head;
    head = m;
  }
  return head;
}

static void append_group(struct item **list, int n) {
  struct item *g = malloc(sizeof *g);
  if (!g)
    abort();
  g->sub = members(n);
  g->next = NULL;
  if (!*list) {
    *list = g;
    return;
  }
  struct item *last = *list;
  while (last->next)
    last = last->next;
  last->next = g;
}

int main(void) {
  struct item *list = NULL;
  while (__VERIFIER_nondet_int())
    append_group(&list, __VERIFIER_nondet_int() % 4);
  while (list) {
    struct item *rest = list->next;
    struct item *m = list->sub;
    while (m) {
      struct item *after = m->next;
      free(m);
      m = after;
    }
    free(list);
    list = rest;
  }
  return 0;
}
