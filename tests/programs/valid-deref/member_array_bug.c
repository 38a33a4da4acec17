// check: valid-memsafety
// data-model: LP64
// expect: FALSE(valid-deref)
// Why: as member_array.c, but the terminating zero goes to `tag[16]` (line 21), offset 24 of a block of 24 bytes: past the end of the record.
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
    r->tag[16] = 0;
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
