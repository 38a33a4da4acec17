// check: unreach-call,valid-memsafety
// expect: TRUE
// Why: nondeterministic values are inserted into a list kept sorted (the insertion point is found by comparing the next cell with the key, line 21), and every cell is then checked to hold at most its successor's value (line 34): the shape analysis learns the ordering of a cell along next and the cells' relations to the key.
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void *malloc(unsigned long);
extern void free(void *);
void reach_error(void) { abort(); }

struct node { struct node *next; int data; };

struct node *insert(struct node *head, int x) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    n->data = x;
    if (head == 0 || head->data >= x) {
        n->next = head;
        return n;
    }
    struct node *p = head;
    while (p->next != 0 && p->next->data < x) /* OK: stops before the first larger value */
        p = p->next;
    n->next = p->next;
    p->next = n;
    return head;
}

int main(void) {
    struct node *head = 0;
    while (__VERIFIER_nondet_int())
        head = insert(head, __VERIFIER_nondet_int());
    for (struct node *p = head; p != 0 && p->next != 0; p = p->next)
        if (p->data > p->next->data)
            reach_error();
    while (head) {
        struct node *t = head->next;
        free(head);
        head = t;
    }
    return 0;
}
