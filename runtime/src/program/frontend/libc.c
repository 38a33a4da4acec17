/* shapecheck's C library: definitions of standard functions that a program calls but does
 * not define, written in the C the front end lowers, so that every engine runs them like the
 * program's own code (the memory-safety checks of their reads and writes included). A
 * definition is lowered only when the program calls the function and has no body for it.
 * The intrinsics `__shapecheck_*` are built into the engines. Nothing here is printed or read:
 * output functions check their arguments and return what the real function would. */

typedef unsigned long size_t;
typedef __builtin_va_list va_list;

extern void *malloc(size_t);
extern void free(void *);
extern void *memcpy(void *, const void *, size_t);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern size_t __shapecheck_block_size(void *);
extern void __shapecheck_unsupported(const char *);

/* ---- memory ---- */

void *realloc(void *p, size_t n) {
  if (!p)
    return malloc(n);
  size_t old = __shapecheck_block_size(p);
  if (n == 0) {
    free(p);
    return 0;
  }
  void *q = malloc(n);
  if (!q)
    return 0;
  memcpy(q, p, old < n ? old : n);
  free(p);
  return q;
}

void *reallocarray(void *p, size_t n, size_t m) {
  if (m != 0 && n > (size_t)-1 / m)
    return 0;
  return realloc(p, n * m);
}

/* ---- strings ---- */

size_t strlen(const char *s) {
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

size_t strnlen(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n])
    n++;
  return n;
}

int strcmp(const char *a, const char *b) {
  size_t i = 0;
  while (a[i] && a[i] == b[i])
    i++;
  return (unsigned char)a[i] - (unsigned char)b[i];
}

int strncmp(const char *a, const char *b, size_t n) {
  size_t i = 0;
  if (n == 0)
    return 0;
  while (i + 1 < n && a[i] && a[i] == b[i])
    i++;
  return (unsigned char)a[i] - (unsigned char)b[i];
}

char *strcpy(char *d, const char *s) {
  size_t i = 0;
  while ((d[i] = s[i]))
    i++;
  return d;
}

char *strncpy(char *d, const char *s, size_t n) {
  size_t i = 0;
  for (; i < n && s[i]; i++)
    d[i] = s[i];
  for (; i < n; i++)
    d[i] = 0;
  return d;
}

char *strcat(char *d, const char *s) {
  strcpy(d + strlen(d), s);
  return d;
}

char *strncat(char *d, const char *s, size_t n) {
  size_t k = strlen(d);
  size_t i = 0;
  for (; i < n && s[i]; i++)
    d[k + i] = s[i];
  d[k + i] = 0;
  return d;
}

char *strchr(const char *s, int c) {
  for (;; s++) {
    if (*s == (char)c)
      return (char *)s;
    if (!*s)
      return 0;
  }
}

char *strrchr(const char *s, int c) {
  char *last = 0;
  for (;; s++) {
    if (*s == (char)c)
      last = (char *)s;
    if (!*s)
      return last;
  }
}

char *strstr(const char *h, const char *n) {
  size_t k = strlen(n);
  for (; *h; h++)
    if (strncmp(h, n, k) == 0)
      return (char *)h;
  return k == 0 ? (char *)h : 0;
}

int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *x = a;
  const unsigned char *y = b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i])
      return x[i] - y[i];
  return 0;
}

void *memchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  for (size_t i = 0; i < n; i++)
    if (p[i] == (unsigned char)c)
      return (void *)(p + i);
  return 0;
}

char *strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

char *strndup(const char *s, size_t max) {
  size_t n = strnlen(s, max);
  char *d = malloc(n + 1);
  if (!d)
    return 0;
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

/* ---- numbers ---- */

int abs(int x) { return x < 0 ? -x : x; }
long labs(long x) { return x < 0 ? -x : x; }
long long llabs(long long x) { return x < 0 ? -x : x; }

long strtol(const char *s, char **end, int base) {
  if (base != 10 && base != 0)
    __shapecheck_unsupported("strtol with a base other than 10");
  const char *p = s;
  while (*p == ' ' || (*p >= 9 && *p <= 13))
    p++;
  int neg = *p == '-';
  if (*p == '-' || *p == '+')
    p++;
  long v = 0;
  const char *digits = p;
  while (*p >= '0' && *p <= '9') {
    v = v * 10 + (*p - '0');
    p++;
  }
  if (end)
    *end = (char *)(p == digits ? s : p);
  return neg ? -v : v;
}

int atoi(const char *s) { return (int)strtol(s, 0, 10); }
long atol(const char *s) { return strtol(s, 0, 10); }

int rand(void) {
  int r = __VERIFIER_nondet_int();
  __VERIFIER_assume(r >= 0);
  return r;
}

void srand(unsigned seed) {}

/* ---- output: the arguments are read as the real functions read them ---- */

/* The number of digits of `v` in base `b` (at least one), without branching on `v`. */
static int __shapecheck_digits(unsigned long long v, unsigned b) {
  int n = 1;
  unsigned long long p = b;
  for (int i = 1; i < 64; i++) {
    n += v >= p;
    if (p > (unsigned long long)-1 / b)
      break;
    p = p * b;
  }
  return n;
}

/* The characters `fmt` and its arguments print, or the intrinsic stops the run for what is
 * not modelled (floating point, %n). */
static int __shapecheck_format(const char *fmt, va_list ap) {
  int count = 0;
  for (const char *f = fmt; *f; f++) {
    if (*f != '%') {
      count++;
      continue;
    }
    f++;
    while (*f == '-' || *f == '+' || *f == ' ' || *f == '#' || *f == '0')
      f++;
    int width = 0;
    if (*f == '*') {
      width = __builtin_va_arg(ap, int);
      if (width < 0)
        width = -width;
      f++;
    }
    while (*f >= '0' && *f <= '9')
      width = width * 10 + (*f++ - '0');
    int prec = -1;
    if (*f == '.') {
      f++;
      prec = 0;
      if (*f == '*') {
        prec = __builtin_va_arg(ap, int);
        f++;
      }
      while (*f >= '0' && *f <= '9')
        prec = prec * 10 + (*f++ - '0');
    }
    int len = 0;
    while (*f == 'h' || *f == 'l' || *f == 'z' || *f == 'j' || *f == 't' || *f == 'L') {
      len += *f == 'l' ? 1 : (*f == 'z' || *f == 'j' || *f == 't') ? 2 : 0;
      f++;
    }
    int n;
    char c = *f;
    if (c == '%') {
      n = 1;
    } else if (c == 'c') {
      __builtin_va_arg(ap, int);
      n = 1;
    } else if (c == 's') {
      const char *s = __builtin_va_arg(ap, const char *);
      n = prec < 0 ? (int)strlen(s) : (int)strnlen(s, prec);
    } else if (c == 'd' || c == 'i' || c == 'u' || c == 'x' || c == 'X' || c == 'o') {
      unsigned long long v;
      int neg = 0;
      int signed_ = c == 'd' || c == 'i';
      if (len >= 2) {
        long long x = __builtin_va_arg(ap, long long);
        neg = signed_ && x < 0;
        v = signed_ && x < 0 ? -(unsigned long long)x : (unsigned long long)x;
      } else if (len == 1) {
        long x = __builtin_va_arg(ap, long);
        neg = signed_ && x < 0;
        v = signed_ && x < 0 ? -(unsigned long)x : (unsigned long)x;
      } else {
        int x = __builtin_va_arg(ap, int);
        neg = signed_ && x < 0;
        v = signed_ && x < 0 ? -(unsigned)x : (unsigned)x;
      }
      unsigned base = c == 'o' ? 8 : (c == 'x' || c == 'X') ? 16 : 10;
      n = __shapecheck_digits(v, base);
      if (prec == 0 && v == 0)
        n = 0;
      if (prec > n)
        n = prec;
      n += neg;
    } else if (c == 'p') {
      __builtin_va_arg(ap, void *);
      n = __VERIFIER_nondet_int();
      __VERIFIER_assume(n > 0);
    } else if (c == 0) {
      return count;
    } else {
      __shapecheck_unsupported("a printf conversion other than %d %i %u %x %o %c %s %p");
      n = 0;
    }
    count += width > n ? width : n;
  }
  return count;
}

/* What an output function returns: the count, or a negative value on an output error. */
static int __shapecheck_printed(int count) {
  int r = __VERIFIER_nondet_int();
  __VERIFIER_assume(r == count || r < 0);
  return r;
}

int vprintf(const char *fmt, va_list ap) { return __shapecheck_printed(__shapecheck_format(fmt, ap)); }

int printf(const char *fmt, ...) {
  va_list ap;
  __builtin_va_start(ap, fmt);
  int n = __shapecheck_format(fmt, ap);
  __builtin_va_end(ap);
  return __shapecheck_printed(n);
}

int vfprintf(void *stream, const char *fmt, va_list ap) {
  return __shapecheck_printed(__shapecheck_format(fmt, ap));
}

int fprintf(void *stream, const char *fmt, ...) {
  va_list ap;
  __builtin_va_start(ap, fmt);
  int n = __shapecheck_format(fmt, ap);
  __builtin_va_end(ap);
  return __shapecheck_printed(n);
}

int puts(const char *s) {
  strlen(s);
  int r = __VERIFIER_nondet_int();
  __VERIFIER_assume(r >= 0 || r == -1);
  return r;
}

int fputs(const char *s, void *stream) {
  strlen(s);
  int r = __VERIFIER_nondet_int();
  __VERIFIER_assume(r >= 0 || r == -1);
  return r;
}

/* putchar(c) returns c as an unsigned char, or EOF. */
int putchar(int c) {
  int r = __VERIFIER_nondet_int();
  __VERIFIER_assume(r == (unsigned char)c || r == -1);
  return r;
}

int fputc(int c, void *stream) { return putchar(c); }
int putc(int c, void *stream) { return putchar(c); }

int fflush(void *stream) {
  int r = __VERIFIER_nondet_int();
  __VERIFIER_assume(r == 0 || r == -1);
  return r;
}

/* ---- input ---- */

int getchar(void) {
  int r = __VERIFIER_nondet_int();
  __VERIFIER_assume(r >= -1 && r <= 255);
  return r;
}

int fgetc(void *stream) { return getchar(); }
int getc(void *stream) { return getchar(); }
