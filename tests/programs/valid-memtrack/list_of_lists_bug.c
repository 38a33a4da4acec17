// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: as list_of_lists.c, but a group with more than one member drops them (line 48) and is freed alone (line 54): its members are lost.
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
    if (m && m->next)
      m = NULL;
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
