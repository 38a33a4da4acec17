// check: unreach-call,valid-memsafety
// expect: TRUE
// Why: Bohne's SortedList.insert (seed 004, Fig. 2): the cell to insert is compared with the cursor's cell (line 17), so prev's value stays below it and curr's is not; sortedness is checked after the insertions (line 37).
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void *malloc(unsigned long);
extern void free(void *);
void reach_error(void) { abort(); }

struct node { struct node *next; int data; };
struct node *first = 0;

/* SortedList.insert (Bohne, Fig. 2) */
void insert(struct node *n) {
    struct node *prev = 0;
    struct node *curr = first;
    while (curr != 0 && curr->data < n->data) { /* OK: prev stays below n */
        prev = curr;
        curr = curr->next;
    }
    n->next = curr;
    if (prev != 0)
        prev->next = n;
    else
        first = n;
}

int main(void) {
    while (__VERIFIER_nondet_int()) {
        struct node *n = malloc(sizeof(struct node));
        if (!n) abort();
        n->data = __VERIFIER_nondet_int();
        insert(n);
    }
    for (struct node *p = first; p != 0 && p->next != 0; p = p->next)
        if (p->data > p->next->data)
            reach_error();
    while (first) {
        struct node *t = first->next;
        free(first);
        first = t;
    }
    return 0;
}
