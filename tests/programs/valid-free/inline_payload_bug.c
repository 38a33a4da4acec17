// check: valid-memsafety
// expect: FALSE(valid-free)
// Why: the drain frees every payload (line 39), also one stored inside its own message (line 27): a free of an address inside a block.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct payload {
  int len;
};

struct msg {
  struct msg *next;
  struct payload *body;
  struct payload inline_body;
};

int main(void) {
  struct msg *queue = NULL;
  while (__VERIFIER_nondet_int()) {
    struct msg *m = malloc(sizeof *m);
    if (!m)
      abort();
    if (__VERIFIER_nondet_int()) {
      m->body = malloc(sizeof *m->body);
    } else {
      m->body = &m->inline_body;
    }
    if (!m->body)
      abort();
    m->body->len = 0;
    m->next = queue;
    queue = m;
  }
  while (queue) {
    struct msg *m = queue;
    queue = queue->next;
    if (m->body != NULL)
      free(m->body); /* BUG: may be inside m */
    free(m);
  }
  return 0;
}
