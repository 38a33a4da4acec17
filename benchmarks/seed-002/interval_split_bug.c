/* Seed 002 (Malik, Hruska, Schrammel, Vojnar, FMCAD 2018): a program of our own in the
 * spirit of Table II (shape and data of an unbounded list); it re-creates no row. With one
 * bug.
 *
 * Models: as interval_split.c, a list of integer intervals [lo, hi] inside [0, 1000], for
 * example free blocks of a resource. Intervals are inserted with their ends ordered
 * (swapped if given the other way round). Then, any number of times, a walk either splits
 * an interval of at least two elements into two halves (the upper half is a new node
 * inserted after it), shrinks an interval from the left, or grows it to the right (within
 * 1000). Finally a walk asserts 0 <= lo <= hi <= 1000 for every node and frees the list.
 * The bug: the split is off by one; the old node keeps [lo, mid - 1] instead of [lo, mid],
 * so splitting the two-element interval [0, 1] (mid = 0) leaves the inverted interval [0,
 * -1] in the list (and loses the element 0).
 *
 * Table II row: none (own program; buggy twin).
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

#define MAX 1000

typedef struct interval {
  int lo;
  int hi;
  struct interval *next;
} Interval;

int main(void) {
  Interval *list = NULL;
  Interval *p;
  while (__VERIFIER_nondet_int()) {
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    if (a < 0 || a > MAX || b < 0 || b > MAX) continue;
    if (a > b) {
      int t = a;
      a = b;
      b = t;
    }
    p = malloc(sizeof(Interval));
    if (p == NULL) return 0;
    p->lo = a;
    p->hi = b;
    p->next = list;
    list = p;
  }

  while (__VERIFIER_nondet_int()) {
    p = list;
    while (p != NULL) {
      int action = __VERIFIER_nondet_int();
      if (action == 1 && p->lo < p->hi) {
        /* split [lo, hi] into [lo, mid] and [mid + 1, hi] */
        int mid = p->lo + (p->hi - p->lo) / 2;
        Interval *q = malloc(sizeof(Interval));
        if (q == NULL) return 0;
        q->lo = mid + 1;
        q->hi = p->hi;
        q->next = p->next;
        p->hi = mid - 1; /* BUG: should be p->hi = mid */
        p->next = q;
        p = q->next;
      } else {
        if (action == 2 && p->lo < p->hi) p->lo++;
        else if (action == 3 && p->hi < MAX) p->hi++;
        p = p->next;
      }
    }
  }

  while (list != NULL) {
    p = list;
    if (!(0 <= p->lo && p->lo <= p->hi && p->hi <= MAX)) reach_error();
    list = p->next;
    free(p);
  }
  return 0;
}
