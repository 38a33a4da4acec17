// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: on the error path (negative key) parse() returns NULL without freeing the record (line 19), so its only pointer dies with parse's frame.
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
    return NULL; /* BUG: r is still allocated and its only pointer dies here */
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
