// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: the cleanup loop frees each outer node but not its inner list (line 52), so any non-empty inner list becomes unreachable when its owner is freed.
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
    free(list); /* BUG: list->items is not freed and is lost with its owner */
    list = next;
  }
  return 0;
}
