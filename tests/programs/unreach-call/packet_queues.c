// check: unreach-call
// expect: TRUE
// timeout: 180
// Why: packets are returned and passed by value (struct return, struct parameter, struct field copy) and pushed through a reference parameter onto one of two queues by their size and priority; each queue's drain checks its class.
extern unsigned __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void abort(void);

struct packet {
  unsigned size;
  unsigned prio;
  unsigned seq;
};

struct qnode {
  struct packet pkt;
  struct qnode *next;
};

struct packet get_packet(void) {
  static unsigned counter = 0;
  struct packet p;
  counter++;
  p.size = __VERIFIER_nondet_uint();
  p.prio = __VERIFIER_nondet_int() ? 0 : 1;
  p.seq = counter;
  return p;
}

void push(struct packet p, struct qnode **q) {
  struct qnode *n = malloc(sizeof(*n));
  if (n == 0)
    abort();
  n->pkt = p;
  n->next = *q;
  *q = n;
}

void drain_high(struct qnode *q) {
  for (struct qnode *n = q; n != 0; n = n->next)
    if (!(n->pkt.prio == 1 || n->pkt.size < 500))
      reach_error();
}

void drain_low(struct qnode *q) {
  for (struct qnode *n = q; n != 0; n = n->next)
    if (!(n->pkt.prio == 0 && n->pkt.size >= 500))
      reach_error();
}

int main(void) {
  struct qnode *high = 0, *low = 0;
  while (__VERIFIER_nondet_int()) {
    struct packet p = get_packet();
    if (p.size > 0) {
      if (p.prio == 1)
        push(p, &high);
      else if (p.size < 500)
        push(p, &high);
      else
        push(p, &low);
    }
  }
  drain_high(high);
  drain_low(low);
  return 0;
}
