// check: valid-memsafety
// data-model: LP64
// expect: TRUE
// Why: cells are pushed on one of two lists chosen through a pointer to a head variable (`struct job **queue`, lines 19-20), then one cell with a chosen key is unlinked through a pointer to the link that holds it (`struct job **pp`, lines 25-31) and freed; both lists are freed at the end.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct job {
  struct job *next;
  int key;
};

int main(void) {
  struct job *urgent = NULL, *later = NULL;
  while (__VERIFIER_nondet_int()) {
    struct job *j = malloc(sizeof(struct job));
    if (!j) abort();
    j->key = __VERIFIER_nondet_int();
    struct job **queue = &later;
    if (__VERIFIER_nondet_int()) queue = &urgent;
    j->next = *queue;
    *queue = j;
  }
  int key = __VERIFIER_nondet_int();
  struct job **pp = &urgent;
  while (*pp && (*pp)->key != key)
    pp = &(*pp)->next;
  if (*pp) {
    struct job *t = *pp;
    *pp = t->next;
    free(t);
  }
  while (urgent) {
    struct job *n = urgent->next;
    free(urgent);
    urgent = n;
  }
  while (later) {
    struct job *n = later->next;
    free(later);
    later = n;
  }
  return 0;
}
