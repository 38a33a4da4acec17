// check: unreach-call
// malloc: never-fails
// expect: FALSE(unreach-call)
// Why: values may reach base + 50 (line 21 admits v == base + 50), so the check at line 30 fails on a one-node list.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);

struct item {
  struct item *next;
  int v;
};

int main(void) {
  struct item *list = 0;
  int base = __VERIFIER_nondet_int();
  while (__VERIFIER_nondet_int()) {
    if (base < 0 || base > 500000)
      continue;
    int v = __VERIFIER_nondet_int();
    if (v <= base || v > base + 50) /* BUG: admits base + 50 */
      continue;
    struct item *n = malloc(sizeof(struct item)); /* OK: allocation never fails under the task's rules */
    n->v = v;
    n->next = list;
    list = n;
  }
  for (struct item *i = list; i != 0; i = i->next) {
    if (!(i->v >= base && i->v < base + 50))
      reach_error();
  }
  return 0;
}
