/* Seed 002 (Malik, Hruska, Schrammel, Vojnar, FMCAD 2018), Table II benchmark re-created.
 *
 * Models: a bucket of a hash table kept as a singly-linked list. The table's base offset
 * is chosen at start-up (0 <= base <= 1000), and every entry stores hash = base + key %
 * 100 for a non-negative key, so the hash lies in [base, base+100). Negative keys are
 * rejected. A walk asserts the range and frees the entries. The property relates a field
 * of every node to a program variable.
 * Invariant: base <= ao.hash <= base + 99 for every abstract object (and 0 <= base <=
 * 1000).
 *
 * Table II row: Hash Function.
 * Expected: TRUE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

#define SIZE 100

typedef struct entry {
  int key;
  int hash;
  struct entry *next;
} Entry;

int main(void) {
  int base = __VERIFIER_nondet_int();
  if (base < 0 || base > 1000) return 0;
  Entry *bucket = NULL;
  Entry *e;
  while (__VERIFIER_nondet_int()) {
    int key = __VERIFIER_nondet_int();
    if (key < 0) continue;
    e = malloc(sizeof(Entry));
    if (e == NULL) return 0;
    e->key = key;
    e->hash = base + key % SIZE;
    e->next = bucket;
    bucket = e;
  }
  while (bucket != NULL) {
    e = bucket;
    if (!(e->hash >= base && e->hash < base + SIZE)) reach_error();
    bucket = e->next;
    free(e);
  }
  return 0;
}
