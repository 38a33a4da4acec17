/* Seed 002 (Malik, Hruska, Schrammel, Vojnar, FMCAD 2018), Table II benchmark re-created,
 * with one bug.
 *
 * Models: as process_queue.c, a round-robin scheduler. Processes wait in a FIFO queue (a
 * singly-linked list with head and tail pointers); each has a remaining run time in
 * 1..100. In an unbounded loop, either a new process arrives (appended at the tail; run
 * times out of bounds are rejected) or the head process runs for one time quantum of 10:
 * its remaining time is checked, decremented, and the process is removed (freed) if it
 * finished, or moved to the tail otherwise. The bug: a process is removed only when its
 * remaining time is negative, so a process that arrives with time 10 stays in the queue
 * with time 0, and the check fails the next time it runs.
 *
 * Table II row: Process Queue (buggy twin).
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

#define MAX_TIME 100
#define QUANTUM 10

typedef struct process {
  int pid;
  int time;
  struct process *next;
} Process;

int main(void) {
  Process *head = NULL, *tail = NULL;
  Process *p;
  int next_pid = 0;
  while (__VERIFIER_nondet_int()) {
    if (__VERIFIER_nondet_int()) {
      /* a new process arrives */
      int t = __VERIFIER_nondet_int();
      if (t < 1 || t > MAX_TIME) continue;
      p = malloc(sizeof(Process));
      if (p == NULL) return 0;
      p->pid = next_pid;
      if (next_pid < 1000000) next_pid++;
      p->time = t;
      p->next = NULL;
      if (tail == NULL) head = p;
      else tail->next = p;
      tail = p;
    } else if (head != NULL) {
      /* run the head process for one quantum */
      p = head;
      head = head->next;
      if (head == NULL) tail = NULL;
      if (!(p->time >= 1 && p->time <= MAX_TIME)) reach_error();
      p->time = p->time - QUANTUM;
      if (p->time < 0) { /* BUG: should be p->time <= 0 */
        free(p);
      } else {
        p->next = NULL;
        if (tail == NULL) head = p;
        else tail->next = p;
        tail = p;
      }
    }
  }
  while (head != NULL) {
    p = head;
    if (!(p->time >= 1 && p->time <= MAX_TIME)) reach_error();
    head = p->next;
    free(p);
  }
  return 0;
}
