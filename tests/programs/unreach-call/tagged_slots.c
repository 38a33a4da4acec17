// check: unreach-call
// expect: TRUE
// Why: an unbounded list of slots tagged FREE_SLOT or USED ends in a slot tagged END (line 19); the walk that stops at END (line 34) only meets the two tags, and END is the last cell; needs field assertions on `tag` in the shape analysis.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

enum { FREE_SLOT = 0, USED = 1, END = 7 };

struct slot {
  struct slot *next;
  int tag;
};

int main(void) {
  struct slot *end = malloc(sizeof(struct slot));
  if (!end)
    return 0;
  end->tag = END;
  end->next = NULL;
  struct slot *first = end;
  while (__VERIFIER_nondet_int()) {
    struct slot *s = malloc(sizeof(struct slot));
    if (!s)
      break;
    s->next = first;
    if (__VERIFIER_nondet_int())
      s->tag = USED;
    else
      s->tag = FREE_SLOT;
    first = s;
  }
  struct slot *p = first;
  while (p->tag != END) {
    if (p->tag != FREE_SLOT && p->tag != USED)
      reach_error();
    p = p->next;
  }
  if (p->next != NULL)
    reach_error();
  while (first->tag != END) {
    struct slot *n = first->next;
    free(first);
    first = n;
  }
  free(first);
  return 0;
}
