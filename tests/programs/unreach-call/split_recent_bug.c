// check: unreach-call
// expect: FALSE(unreach-call)
// Why: as split_recent.c, but a new interval starts two above the lower bound of the previous one (line 26), so the second interval is [2, 2] and the third [4, 3].
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);

struct range {
  int lo;
  int hi;
  struct range *next;
};

int main(void) {
  struct range *last = malloc(sizeof(struct range));
  if (last == 0)
    return 0;
  last->lo = 0;
  last->hi = 1;
  last->next = 0;
  while (__VERIFIER_nondet_int()) {
    int lo = last->lo;
    struct range *r = malloc(sizeof(struct range));
    if (r == 0)
      return 0;
    r->lo = lo + 2;
    r->hi = last->hi < 1000 ? last->hi + 1 : last->hi;
    r->next = last;
    last = r;
    if (__VERIFIER_nondet_int() && last->lo < last->hi)
      last->lo++;
  }
  for (struct range *p = last; p != 0; p = p->next)
    if (p->lo > p->hi)
      reach_error();
  return 0;
}
