// harness.cpp: kernels/special/*.cuh on the host, for check.py: reads lines
// "name a b c d" (a function's arguments, unused ones 0) and prints each
// result with 17 digits. Build: c++ -O1 -I../../kernels/special harness.cpp
#include "host_shim.h"
#include <stdio.h>
#include <string.h>
#include "sf_all.h"

typedef double (*fn4)(double, double, double, double);
struct entry { const char *name; fn4 f; };

#define F1(n, e) static double h_##n(double a, double, double, double) { return e; }
#define F2(n, e) static double h_##n(double a, double b, double, double) { return e; }
#define F3(n, e) static double h_##n(double a, double b, double c, double) { return e; }
#define F4(n, e) static double h_##n(double a, double b, double c, double d) { return e; }
#include "harness_list.h"
#undef F1
#undef F2
#undef F3
#undef F4
#define F1(n, e) {#n, h_##n},
#define F2(n, e) {#n, h_##n},
#define F3(n, e) {#n, h_##n},
#define F4(n, e) {#n, h_##n},
static const entry table[] = {
#include "harness_list.h"
  {0, 0}};

int main() {
  char name[64];
  double a, b, c, d;
  while (scanf("%63s %lf %lf %lf %lf", name, &a, &b, &c, &d) == 5) {
    const entry *e = table;
    while (e->name && strcmp(e->name, name) != 0) e++;
    if (!e->name) { printf("nofunc\n"); continue; }
    printf("%.17g\n", e->f(a, b, c, d));
  }
  return 0;
}
