// check: valid-memcleanup
// expect: FALSE(valid-memcleanup)
// Why: the failure path calls exit(1) without freeing the table (line 39), so when an entry value is negative two blocks are still allocated at program termination.
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
      exit(1); /* BUG: t and t->entries are still allocated */
    }
  }

  table_free(t);
  return 0;
}
