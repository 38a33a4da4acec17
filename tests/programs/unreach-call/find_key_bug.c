// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the list stores 0, 14, 28, 42 (line 31), so reach_error is called exactly when the nondeterministic key x is 42.
#include <stdlib.h>

extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "find_key.c", 9, __PRETTY_FUNCTION__); }
extern int __VERIFIER_nondet_int(void);

typedef struct node {
  int key;
  struct node *next;
} Node;

static Node *find(Node *l, int key) {
  while (l != NULL && l->key != key)
    l = l->next;
  return l;
}

int main(void) {
  Node *list = NULL;
  int i;

  for (i = 0; i < 4; i++) {
    Node *n = (Node *)malloc(sizeof(Node));
    if (n == NULL)
      abort();
    n->key = i * 14; /* BUG: keys 0, 14, 28, 42 -- 42 can be found */
    n->next = list;
    list = n;
  }

  int x = __VERIFIER_nondet_int();
  Node *hit = find(list, x);
  if (x == 42 && hit != NULL)
    reach_error();
  if (hit != NULL && hit->key != x)
    reach_error();

  while (list != NULL) {
    Node *t = list->next;
    free(list);
    list = t;
  }
  return 0;
}
