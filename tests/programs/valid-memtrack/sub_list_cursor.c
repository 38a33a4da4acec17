// check: valid-memsafety
// data-model: LP64
// expect: TRUE
// Why: a list of rows, each owning a list of cells of another struct built by a helper that returns it (line 37); each row's cells are freed through a cursor while the row still points to its freed first cell (line 46), then the row is freed. The row's other cells stay reachable from the cursor, and the other rows' cells from their rows.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct cell {
  struct cell *next;
  int data;
};

struct row {
  struct row *next;
  struct cell *cells;
};

static struct cell *make_cells(void) {
  struct cell *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct cell *c = malloc(sizeof *c);
    if (!c)
      abort();
    c->next = head;
    c->data = 0;
    head = c;
  }
  return head;
}

int main(void) {
  struct row *rows = NULL;
  while (__VERIFIER_nondet_int()) {
    struct row *r = malloc(sizeof *r);
    if (!r)
      abort();
    r->cells = make_cells();
    r->next = rows;
    rows = r;
  }
  while (rows) {
    struct row *rest = rows->next;
    struct cell *c = rows->cells;
    while (c) {
      struct cell *after = c->next;
      free(c);
      c = after;
    }
    free(rows);
    rows = rest;
  }
  return 0;
}
