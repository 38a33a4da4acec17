// check: valid-memsafety
// data-model: LP64
// expect: FALSE(valid-deref)
// Why: as sub_list_cursor.c, but the cursor reads the next cell out of the cell it has just freed (line 46).
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
      free(c);
      c = c->next;
    }
    free(rows);
    rows = rest;
  }
  return 0;
}
