// check: valid-memsafety
// expect: TRUE
// Why: a ring closed by a sentinel (stage 0) grows by appends whose cells carry stages 1..3 in order; a pass checks the order, then the ring is freed from the sentinel's successor with the sentinel's own variable as the cursor, and the sentinel last. Needs csll with sharing; coerce sharpening the successor of a single cell by the entry law (the cell after the one to be freed cannot point back to it); differencing that keeps reachability from `pos` when the cell whose only edge leads to `pos` is freed, its dangling predecessors keeping their other edges; and the ring, opened by an append, closed again by `pos->next = ring` (every cell `ring` reached is cyclic again).
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct stage {
  struct stage *next;
  int level;
};

static struct stage *stage_new(void) {
  struct stage *s = malloc(sizeof *s);
  if (!s)
    abort();
  return s;
}

int main(void) {
  struct stage *ring = stage_new();
  ring->next = ring;
  ring->level = 0;
  struct stage *pos = ring;
  int level = 1;
  while (__VERIFIER_nondet_int()) {
    pos->next = stage_new();
    pos = pos->next;
    pos->next = ring;
    if (__VERIFIER_nondet_int()) {
      if (level == 1)
        level = 2;
      else if (level == 2)
        level = 3;
      else
        break;
    }
    pos->level = level;
  }
  pos->level = level;
  pos = ring->next;
  while (pos->level != 0) {
    if (pos->next->level != 0 && pos->level > pos->next->level)
      abort();
    pos = pos->next;
  }
  pos = ring->next;
  while (pos->level != 0) {
    ring = pos;
    pos = pos->next;
    free(ring);
  }
  free(pos);
  return 0;
}
