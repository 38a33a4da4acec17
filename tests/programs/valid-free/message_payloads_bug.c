// check: valid-memsafety
// data-model: LP64
// expect: FALSE(valid-free)
// Why: draining frees a full payload a second time (line 47), so the first message drained frees its payload twice.
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);

struct link {
  struct link *next, *prev;
};

#define entry_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

struct message {
  int size;
  void *payload;
  struct link node;
};

static struct link inbox = { &inbox, &inbox };

static void *get_memory(size_t n) {
  if (__VERIFIER_nondet_int())
    return malloc(n);
  return NULL;
}

static int attach_payload(struct message *m) {
  void *p = get_memory(32);
  if (!p)
    return -1;
  memset(p, 0, 32);
  m->payload = p;
  m->size = 32;
  return 0;
}

static void drain(void) {
  while (inbox.next != &inbox) {
    struct message *m = entry_of(inbox.next, struct message, node);
    inbox.next = m->node.next;
    m->node.next->prev = &inbox;
    free(m->payload);
    if (m->size == 32)
      free(m->payload);
    free(m);
  }
}

int main(void) {
  while (__VERIFIER_nondet_int()) {
    struct message *m = get_memory(sizeof(struct message));
    if (!m)
      break;
    m->payload = NULL;
    if (attach_payload(m) < 0) {
      free(m);
      break;
    }
    m->node.next = inbox.next;
    m->node.prev = &inbox;
    inbox.next->prev = &m->node;
    inbox.next = &m->node;
  }
  drain();
  return 0;
}
