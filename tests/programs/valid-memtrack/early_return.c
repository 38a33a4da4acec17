// check: valid-memsafety
// expect: TRUE
// Why: parse() allocates a record and frees it before taking the early-return error path (line 19); main frees every record it gets back.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct record {
  int key;
  int value;
};

static struct record *parse(void) {
  struct record *r = malloc(sizeof *r);
  if (r == NULL)
    return NULL;
  r->key = __VERIFIER_nondet_int();
  if (r->key < 0) {
    free(r); /* OK: released before the early return */
    return NULL;
  }
  r->value = r->key / 2;
  return r;
}

int main(void) {
  int i;
  for (i = 0; i < 3; i++) {
    struct record *r = parse();
    if (r != NULL)
      free(r);
  }
  return 0;
}
