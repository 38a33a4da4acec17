// check: valid-memsafety
// expect: TRUE
// Why: a message keeps a short payload inside its own cell (line 27) and a long one in a block of its own (line 25); the drain frees the payload only when it is not the inline one (line 38), then the message.
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
    if (m->body != &m->inline_body)
      free(m->body); /* OK: a block of its own */
    free(m);
  }
  return 0;
}
