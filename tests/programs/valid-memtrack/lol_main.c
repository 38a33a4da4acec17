// check: valid-memsafety
// expect: TRUE
// Why: builds a list of 3 outer nodes, each owning an inner list of nondeterministic length 0..2, and frees every inner list before its outer node (line 52).
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

struct inner {
  int v;
  struct inner *next;
};

struct outer {
  struct inner *items;
  struct outer *next;
};

void free_inner(struct inner *p) {
  while (p != NULL) {
    struct inner *n = p->next;
    free(p);
    p = n;
  }
}

int main(void) {
  struct outer *list = NULL;
  int i, j;

  for (i = 0; i < 3; i++) {
    struct outer *o = malloc(sizeof(struct outer));
    if (!o)
      abort();
    o->items = NULL;
    o->next = list;
    list = o;
    int len = __VERIFIER_nondet_int();
    __VERIFIER_assume(len >= 0 && len <= 2);
    for (j = 0; j < len; j++) {
      struct inner *in = malloc(sizeof(struct inner));
      if (!in)
        abort();
      in->v = i * 10 + j;
      in->next = o->items;
      o->items = in;
    }
  }

  while (list != NULL) {
    struct outer *next = list->next;
    free_inner(list->items); /* OK: inner list released before its owner */
    free(list);
    list = next;
  }
  return 0;
}
