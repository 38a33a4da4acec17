// check: valid-memsafety
// data-model: LP64
// expect: TRUE
// Why: an unbounded list of records, each with a character array member written at constant indices inside its bounds (lines 20-21) and read back while the list is freed (line 27).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct record {
  struct record *next;
  char tag[8];
  int weight;
};

int main(void) {
  struct record *list = NULL;
  while (__VERIFIER_nondet_int()) {
    struct record *r = malloc(sizeof(struct record));
    if (!r) abort();
    r->next = list;
    r->tag[0] = 'r';
    r->tag[7] = 0;
    r->weight = 1;
    list = r;
  }
  int count = 0;
  while (list) {
    struct record *t = list->next;
    count += list->tag[0] == 'r';
    free(list);
    list = t;
  }
  return count < 0;
}
