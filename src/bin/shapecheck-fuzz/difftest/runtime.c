/* shapecheck-fuzz difftest runtime: the SV-COMP functions for a program compiled with
 * AddressSanitizer/UBSan, with inputs numbered as shapecheck's explicit engine numbers them:
 * every __VERIFIER_nondet_* call and every malloc/calloc consumes one input (for an
 * allocation: nonzero = it fails and returns NULL).
 *
 * Inputs come from DT_INPUTS ("3,0,-1": a counterexample; 0 once the list is used up, as in
 * shapecheck's replay) or from a PRNG seeded by DT_SEED, biased to 0 so that loops driven by
 * nondeterministic values end. Every input used is written to DT_TRACE (when set), one per
 * line. The program's malloc/calloc/free are renamed to dt_malloc/dt_calloc/dt_free (-D) so
 * that live blocks are counted; "DT_LIVE n" is printed on stderr when the program ends (return
 * from main, exit, abort, reach_error), "DT_REACH_ERROR" when reach_error is called,
 * "DT_ASSUME_FALSE" when an assumption fails (the run is then discarded).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long *dt_list;
static long dt_list_len;
static long dt_used;
static unsigned long long dt_state;
static int dt_random;
static FILE *dt_trace;
static long dt_live;

#define DT_MAX_INPUTS 4000

static void dt_report_live(void) { fprintf(stderr, "DT_LIVE %ld\n", dt_live); }

static void dt_init(void) {
  static int done;
  if (done) return;
  done = 1;
  const char *list = getenv("DT_INPUTS");
  const char *seed = getenv("DT_SEED");
  const char *trace = getenv("DT_TRACE");
  if (trace) dt_trace = fopen(trace, "w");
  if (list) {
    dt_list = calloc(strlen(list) + 1, sizeof(long));
    const char *p = list;
    while (*p) {
      char *end;
      long v = strtol(p, &end, 10);
      if (end == p) break;
      dt_list[dt_list_len++] = v;
      p = *end == ',' ? end + 1 : end;
    }
  } else {
    dt_random = 1;
    dt_state = seed ? strtoull(seed, 0, 10) * 0x9e3779b97f4a7c15ULL + 1 : 1;
  }
  atexit(dt_report_live);
}

static unsigned long long dt_next(void) {
  unsigned long long z = (dt_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* The next input; `alloc` inputs fail rarely in random mode. */
static long dt_input(int alloc) {
  dt_init();
  long v;
  if (!dt_random) {
    v = dt_used < dt_list_len ? dt_list[dt_used] : 0;
  } else if (dt_used >= DT_MAX_INPUTS) {
    v = 0;
  } else if (alloc) {
    v = dt_next() % 20 == 0;
  } else {
    unsigned long long r = dt_next() % 100;
    v = r < 35 ? 0 : r < 80 ? 1 + (long)(r % 3) : (long)(r % 9) - 4;
  }
  dt_used++;
  if (dt_trace) {
    fprintf(dt_trace, "%ld\n", v);
    fflush(dt_trace);
  }
  return v;
}

int __VERIFIER_nondet_int(void) { return (int)dt_input(0); }
unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)dt_input(0); }
long __VERIFIER_nondet_long(void) { return dt_input(0); }
_Bool __VERIFIER_nondet_bool(void) { return dt_input(0) != 0; }
char __VERIFIER_nondet_char(void) { return (char)dt_input(0); }

void __VERIFIER_assume(int cond) {
  if (!cond) {
    fprintf(stderr, "DT_ASSUME_FALSE\n");
    _exit(0);
  }
}

void reach_error(void) {
  fprintf(stderr, "DT_REACH_ERROR\n");
  dt_report_live();
  abort();
}

void *dt_malloc(size_t n) {
  if (dt_input(1)) return NULL;
  void *p = malloc(n);
  if (p) dt_live++;
  return p;
}

void *dt_calloc(size_t n, size_t m) {
  if (dt_input(1)) return NULL;
  void *p = calloc(n, m);
  if (p) dt_live++;
  return p;
}

void dt_free(void *p) {
  free(p);
  if (p) dt_live--;
}
