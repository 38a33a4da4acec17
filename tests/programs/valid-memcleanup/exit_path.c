// check: valid-memcleanup
// expect: TRUE
// Why: when a nondeterministic entry value is negative main frees its table before calling exit(1) (line 39); if calloc fails it frees the header before exit(1), and on the normal path it frees the table before returning.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct entry {
  int key;
  int val;
};

struct table {
  int n;
  struct entry *entries;
};

static void table_free(struct table *t) {
  free(t->entries);
  free(t);
}

int main(void) {
  struct table *t = malloc(sizeof *t);
  int i;
  if (!t)
    abort();
  t->n = 3;
  t->entries = calloc(t->n, sizeof(struct entry));
  if (!t->entries) {
    free(t); /* out of memory: release the table header before exiting */
    exit(1);
  }

  for (i = 0; i < t->n; i++) {
    t->entries[i].key = i;
    t->entries[i].val = __VERIFIER_nondet_int();
    if (t->entries[i].val < 0) {
      table_free(t); /* OK: clean up before exit */
      exit(1);
    }
  }

  table_free(t);
  return 0;
}
