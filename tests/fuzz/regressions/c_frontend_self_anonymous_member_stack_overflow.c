// A struct with an anonymous member of its own type (gcc: "field has incomplete type"), and a
// lookup of a field it does not have: unbounded recursion in the front end.
struct s0 { int a; struct s0; };
int main(void) { struct s0 *p = 0; return p->c; }
