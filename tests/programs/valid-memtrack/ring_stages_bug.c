// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: the twin of ring_stages.c whose clean-up stops at the first cell not in stage 1, taking it for the sentinel: it frees that cell and loses the cells after it and the sentinel (line 53).
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
  while (pos->level == 1) {
    ring = pos;
    pos = pos->next;
    free(ring);
  }
  free(pos);
  return 0;
}
