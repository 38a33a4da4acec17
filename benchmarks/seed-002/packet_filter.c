/* Seed 002 (Malik, Hruska, Schrammel, Vojnar, FMCAD 2018), Table II benchmark re-created.
 *
 * Models: a packet filter. Packets (size, priority) are received into an input list of
 * unbounded length. The filter then takes the packets off the input list: a packet whose
 * size is not in 1..1000 is dropped (freed); otherwise it goes to the priority queue if
 * its priority is above the threshold 5, and to the normal queue if not. Finally both
 * queues are processed (each packet checked and freed).
 * Invariant: every node reachable from prio_queue has prio > 5 and 1 <= size <= 1000,
 * every node reachable from normal_queue has prio <= 5 and 1 <= size <= 1000; the nodes
 * still on the input list are unconstrained. All packets come from one allocation site,
 * so the abstract objects of the queues must be kept apart from those of the input list.
 *
 * Table II row: Packet Filter.
 * Expected: TRUE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

#define MAX_SIZE 1000
#define PRIO_THRESHOLD 5

typedef struct packet {
  int size;
  int prio;
  struct packet *next;
} Packet;

int main(void) {
  Packet *input = NULL;
  Packet *prio_queue = NULL;
  Packet *normal_queue = NULL;
  Packet *p;

  /* receive */
  while (__VERIFIER_nondet_int()) {
    p = malloc(sizeof(Packet));
    if (p == NULL) return 0;
    p->size = __VERIFIER_nondet_int();
    p->prio = __VERIFIER_nondet_int();
    p->next = input;
    input = p;
  }

  /* filter */
  while (input != NULL) {
    p = input;
    input = input->next;
    if (p->size < 1 || p->size > MAX_SIZE) {
      free(p);
    } else if (p->prio > PRIO_THRESHOLD) {
      p->next = prio_queue;
      prio_queue = p;
    } else {
      p->next = normal_queue;
      normal_queue = p;
    }
  }

  /* process */
  while (prio_queue != NULL) {
    p = prio_queue;
    if (!(p->prio > PRIO_THRESHOLD)) reach_error();
    if (!(p->size >= 1 && p->size <= MAX_SIZE)) reach_error();
    prio_queue = p->next;
    free(p);
  }
  while (normal_queue != NULL) {
    p = normal_queue;
    if (!(p->prio <= PRIO_THRESHOLD)) reach_error();
    if (!(p->size >= 1 && p->size <= MAX_SIZE)) reach_error();
    normal_queue = p->next;
    free(p);
  }
  return 0;
}
