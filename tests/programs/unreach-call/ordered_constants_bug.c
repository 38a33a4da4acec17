// check: unreach-call,valid-memsafety
// expect: FALSE(unreach-call)
// Why: the top cell holds 3 like the one below it (line 21), so 3 <= 3 holds and the error is reached (line 24).
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void *malloc(unsigned long);
extern void free(void *);
void reach_error(void) { abort(); }
struct node { struct node *next; int data; };
int main(void) {
    struct node *head = 0;
    while (__VERIFIER_nondet_int()) {
        struct node *n = malloc(sizeof(struct node));
        if (!n) abort();
        n->data = 3;
        n->next = head;
        head = n;
    }
    struct node *top = malloc(sizeof(struct node));
    if (!top) abort();
    top->data = 3; /* BUG: equal to the cell below it */
    top->next = head;
    if (head != 0 && top->data <= top->next->data)
        reach_error();
    for (struct node *p = head; p != 0 && p->next != 0; p = p->next)
        if (p->data > p->next->data)
            reach_error();
    while (top) { struct node *t = top->next; free(top); top = t; }
    return 0;
}
