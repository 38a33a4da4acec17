/* Seed 002 (Malik, Hruska, Schrammel, Vojnar, FMCAD 2018), Table II benchmark re-created,
 * with one bug.
 *
 * Models: as calendar.c, a list of days with two event slots in 0..3, where an empty day
 * and a trip in both slots are forbidden; but the rescheduling walk swaps the slots
 * without a temporary, so both slots end up with the afternoon's event. One day (3, 0)
 * becomes (0, 0), an empty day, and the final walk reaches the error.
 *
 * Table II row: Calendar (buggy twin).
 * Expected: FALSE (unreach-call)
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
      /* BUG: swap without a temporary; both slots get event2 */
      p->event1 = p->event2;
      p->event2 = p->event1;
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
