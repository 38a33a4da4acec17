// check: unreach-call
// expect: TRUE
// Why: stores the keys 0, 10, 20, 30 in a list (line 31) and searches for a nondeterministic key; 42 is never stored, so the error guarded by x == 42 is unreachable.
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
    n->key = i * 10; /* OK: keys 0, 10, 20, 30 */
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
