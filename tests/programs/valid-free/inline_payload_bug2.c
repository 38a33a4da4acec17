// check: valid-memsafety
// expect: FALSE(valid-free)
// Why: a message may point to the inline payload of the message queued before it (line 27), which is no block of its own and not its own inline payload, so the drain frees an address inside another message (line 39).
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
      m->body = queue ? &queue->inline_body : &m->inline_body; /* BUG: another cell's member */
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
      free(m->body); /* frees inside the previous message */
    free(m);
  }
  return 0;
}
