// check: unreach-call
// expect: FALSE(unreach-call)
// Why: add stops at the first cell whose key differs (line 15 tests `!=`), so a key is not added to a set holding another one and the lookup (line 39) fails.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "key_membership_bug.c", 8, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: reach_error(); abort(); } }

struct entry { struct entry *next; int key; };

struct entry *add(struct entry *set, int k) {
  for (struct entry *p = set; p; p = p->next)
    if (p->key != k)
      return set;
  struct entry *e = malloc(sizeof *e);
  if (!e) abort();
  e->key = k;
  e->next = set;
  return e;
}

int contains(struct entry *set, int k) {
  for (struct entry *p = set; p; p = p->next)
    if (p->key == k)
      return 1;
  return 0;
}

int main(void) {
  struct entry *set = NULL;
  while (__VERIFIER_nondet_int())
    set = add(set, __VERIFIER_nondet_int());
  int k = __VERIFIER_nondet_int();
  set = add(set, k);
  while (__VERIFIER_nondet_int())
    set = add(set, __VERIFIER_nondet_int());
  __VERIFIER_assert(contains(set, k));
  while (set) {
    struct entry *t = set->next;
    free(set);
    set = t;
  }
  return 0;
}
