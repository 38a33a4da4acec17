// check: valid-memsafety
// expect: TRUE
// Why: a list of days built at the head (some inputs skipped), walked, then drained from the head; each freed head has no other cell pointing to it, which the shape analysis sees only if `p = cal` copies cal's reachability to p and `cal = p->next` moves it past the freed cell (after seed 002's calendar).
extern int __VERIFIER_nondet_int(void);
#include <stdlib.h>

typedef struct day {
  int event1;
  int event2;
  struct day *next;
} Day;

int main(void) {
  Day *cal = NULL;
  Day *p;
  while (__VERIFIER_nondet_int()) {
    int e1 = __VERIFIER_nondet_int();
    int e2 = __VERIFIER_nondet_int();
    if (e1 < 0 || e1 > 3 || e2 < 0 || e2 > 3) continue;
    if (e1 == 0 && e2 == 0) continue; /* an empty day is not stored */
    if (e1 == 3 && e2 == 3) continue; /* a trip takes one slot only */
    p = malloc(sizeof(Day));
    if (p == NULL) break;
    p->event1 = e1;
    p->event2 = e2;
    p->next = cal;
    cal = p;
  }
  /* rescheduling: swap the morning and the afternoon of some days */
  for (p = cal; p != NULL; p = p->next) {
    if (__VERIFIER_nondet_int()) {
      int t = p->event1;
      p->event1 = p->event2;
      p->event2 = t;
    }
  }
  while (cal != NULL) {
    p = cal;
    if (p->event1 == 3 && p->event2 == 3) p->event2 = 0;
    cal = p->next;
    free(p);
  }
  return 0;
}
