/* Seed 002 (Malik, Hruska, Schrammel, Vojnar, FMCAD 2018), Table II benchmark re-created.
 *
 * Models: a calendar kept as a singly-linked list of days; each day has two slots, event1
 * (morning) and event2 (afternoon), each an event kind in 0..3 (0 free, 1 meeting, 2
 * lecture, 3 trip). Two combinations are forbidden and rejected at insertion: an empty day
 * (both slots free) and a trip in both slots (a trip takes one slot only). A later walk
 * swaps the slots of some days (rescheduling), and a final walk asserts that no forbidden
 * combination is present.
 * Invariant: for every node 0 <= event1, event2 <= 3 and 1 <= event1 + event2 <= 5.
 *
 * Table II row: Calendar.
 * Expected: TRUE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
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
    if (p == NULL) return 0;
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
    if (p->event1 == 0 && p->event2 == 0) reach_error();
    if (p->event1 == 3 && p->event2 == 3) reach_error();
    cal = p->next;
    free(p);
  }
  return 0;
}
