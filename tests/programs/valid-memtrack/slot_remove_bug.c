// check: valid-memsafety
// data-model: LP64
// expect: FALSE(valid-memtrack)
// Why: as slot_remove.c, but the cell with the key is unlinked by overwriting its link with the cell after its successor (line 30), so the successor is lost when the key's cell is not last.
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
    *pp = t->next ? t->next->next : NULL;
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
