struct s0 { int a; struct s0; };
int main(void) { struct s0 *p = 0; return p->c; }
