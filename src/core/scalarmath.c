/*
** scalarmath.c: NumPy's arithmetic on scalars, computed on the host: what
** ga.int32(7) + 1 does. The operations are data (the ufunc each stands for
** and the kinds of its loops, as lua/gpuarray/ufuncs.lua defines them for
** arrays); the values follow NumPy's scalar math (scalarmath.c.src,
** npy_math): integers wrap, integer division and remainder by zero give 0,
** floor division and remainder take the divisor's sign (npy_divmod),
** float16 computes in float32 and rounds once, complex64 computes in float,
** complex division is Smith's and complex powers are npy_cpow's. Also the
** comparison of two scalars and their shortest printed form.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

#include <complex.h>   /* after core.h: it defines I, a member name there */

enum { K_BOOL = 1, K_INT = 2, K_FLOAT = 4, K_COMPLEX = 8, K_NUM = K_INT | K_FLOAT | K_COMPLEX };

typedef struct {
  const char *name;         /* the ufunc's name: errors say it */
  int nin;
  int kinds;                /* the kinds it has loops for */
  int int_result;           /* the result of its integer loops (-1: their own type) */
  const char *bool_error;   /* bool operands raise this instead of taking the int8 loop */
} sop_info;

static const sop_info sops[GA_SOP_N] = {
  [GA_SOP_ADD] = {"add", 2, K_BOOL | K_NUM, -1, NULL},
  [GA_SOP_SUBTRACT] = {"subtract", 2, K_NUM, -1, "the boolean subtract is not supported: use logical_xor"},
  [GA_SOP_MULTIPLY] = {"multiply", 2, K_BOOL | K_NUM, -1, NULL},
  [GA_SOP_DIVIDE] = {"divide", 2, K_NUM, GA_FLOAT64, NULL},
  [GA_SOP_FLOOR_DIVIDE] = {"floor_divide", 2, K_INT | K_FLOAT, -1, NULL},
  [GA_SOP_REMAINDER] = {"remainder", 2, K_INT | K_FLOAT, -1, NULL},
  [GA_SOP_POWER] = {"power", 2, K_NUM, -1, NULL},
  [GA_SOP_BITWISE_AND] = {"bitwise_and", 2, K_BOOL | K_INT, -1, NULL},
  [GA_SOP_BITWISE_OR] = {"bitwise_or", 2, K_BOOL | K_INT, -1, NULL},
  [GA_SOP_BITWISE_XOR] = {"bitwise_xor", 2, K_BOOL | K_INT, -1, NULL},
  [GA_SOP_LEFT_SHIFT] = {"left_shift", 2, K_INT, -1, NULL},
  [GA_SOP_RIGHT_SHIFT] = {"right_shift", 2, K_INT, -1, NULL},
  [GA_SOP_NEGATIVE] = {"negative", 1, K_NUM, -1, "the boolean negative is not supported: use logical_not"},
  [GA_SOP_INVERT] = {"invert", 1, K_BOOL | K_INT, -1, NULL},
};

const char *ga_sop_name(ga_sop op) { return sops[op].name; }
int ga_sop_nin(ga_sop op) { return sops[op].nin; }

static int kind_bit(int t) {
  switch (ga_dtypes[t].kind) {
    case 'b': return K_BOOL;
    case 'i':
    case 'u': return K_INT;
    case 'f': return K_FLOAT;
    default: return K_COMPLEX;
  }
}

int ga_sop_resolve(ga_sop op, int P, int *in, int *out, char *err) {
  const sop_info *s = &sops[op];
  int t = P;
  if (t == GA_BOOL && !(s->kinds & K_BOOL)) {
    if (s->bool_error) {
      snprintf(err, GA_ERRMSG_MAX, "%s", s->bool_error);
      return -1;
    }
    t = GA_INT8;   /* NumPy's first loop a bool casts to safely */
  }
  if (!(s->kinds & kind_bit(t))) {
    snprintf(err, GA_ERRMSG_MAX, "not supported for %s", ga_dtypes[P].name);
    return -1;
  }
  *in = t;
  *out = GA_IS_INT(t) && s->int_result >= 0 ? s->int_result : t;
  return 0;
}

/* ===================================================================== */
/* bool and integers                                                     */
/* ===================================================================== */

static int bool_op(ga_sop op, int a, int b) {
  switch (op) {
    case GA_SOP_ADD:
    case GA_SOP_BITWISE_OR: return a || b;
    case GA_SOP_MULTIPLY:
    case GA_SOP_BITWISE_AND: return a && b;
    case GA_SOP_BITWISE_XOR: return a != b;
    default: return !a;   /* invert */
  }
}

/* a op b on 64-bit patterns (sign-extended for the signed types), wrapped
** to the type's width when stored */
static const char *int_op(ga_sop op, int t, uint64_t a, uint64_t b, uint64_t *r) {
  int sgn = GA_IS_SIGNED(t);
  uint64_t bits = 8 * (uint64_t)ga_dtypes[t].itemsize;
  int64_t sa = (int64_t)a, sb = (int64_t)b;
  switch (op) {
    case GA_SOP_ADD: *r = a + b; break;
    case GA_SOP_SUBTRACT: *r = a - b; break;
    case GA_SOP_MULTIPLY: *r = a * b; break;
    case GA_SOP_FLOOR_DIVIDE:
      if (b == 0) *r = 0;
      else if (!sgn) *r = a / b;
      else if (sb == -1) *r = 0 - a;                 /* MIN // -1 wraps to MIN */
      else *r = (uint64_t)(sa / sb - ((sa % sb != 0) && ((sa < 0) != (sb < 0))));
      break;
    case GA_SOP_REMAINDER:
      if (b == 0 || (sgn && sb == -1)) *r = 0;
      else if (!sgn) *r = a % b;
      else {
        int64_t m = sa % sb;
        *r = (uint64_t)(m != 0 && ((m < 0) != (sb < 0)) ? m + sb : m);
      }
      break;
    case GA_SOP_POWER: {
      if (sgn && sb < 0) return "integers to negative integer powers are not allowed";
      uint64_t acc = 1, p = a;
      for (uint64_t e = b; e; e >>= 1) {
        if (e & 1) acc *= p;
        p *= p;
      }
      *r = acc;
      break;
    }
    case GA_SOP_BITWISE_AND: *r = a & b; break;
    case GA_SOP_BITWISE_OR: *r = a | b; break;
    case GA_SOP_BITWISE_XOR: *r = a ^ b; break;
    /* NumPy's npy_lshift/npy_rshift: a count past the width (or negative) shifts everything out */
    case GA_SOP_LEFT_SHIFT: *r = b < bits ? a << b : 0; break;
    case GA_SOP_RIGHT_SHIFT:
      if (b < bits) *r = sgn ? (uint64_t)(sa >> b) : a >> b;
      else *r = sgn && sa < 0 ? UINT64_MAX : 0;
      break;
    case GA_SOP_NEGATIVE: *r = 0 - a; break;
    default: *r = ~a; break;   /* invert */
  }
  return NULL;
}

/* ===================================================================== */
/* floats and complex numbers, in float or in double                     */
/* ===================================================================== */

/* NumPy's npy_divmod: the floored quotient snapped to an integer, and the
** remainder with the divisor's sign; a zero divisor gives a/b and fmod */
#define GA_DIVMOD(F, SUF)                                        \
  static F divmod_##SUF(F a, F b, F *modulus) {                  \
    F mod = fmod##SUF(a, b);                                     \
    if (b == 0) {                                                \
      *modulus = mod;                                            \
      return a / b;                                              \
    }                                                            \
    F div = (a - mod) / b;                                       \
    if (mod != 0) {                                              \
      if ((b < 0) != (mod < 0)) {                                \
        mod += b;                                                \
        div -= 1;                                                \
      }                                                          \
    } else {                                                     \
      mod = copysign##SUF(0, b);                                 \
    }                                                            \
    F fl;                                                        \
    if (div != 0) {                                              \
      fl = floor##SUF(div);                                      \
      if (div - fl > (F)0.5) fl += 1;                            \
    } else {                                                     \
      fl = copysign##SUF(0, a / b);                              \
    }                                                            \
    *modulus = mod;                                              \
    return fl;                                                   \
  }

#define GA_FLOAT_OP(F, SUF)                                      \
  static F float_op_##SUF(ga_sop op, F a, F b) {                 \
    F m;                                                         \
    switch (op) {                                                \
      case GA_SOP_ADD: return a + b;                             \
      case GA_SOP_SUBTRACT: return a - b;                        \
      case GA_SOP_MULTIPLY: return a * b;                        \
      case GA_SOP_DIVIDE: return a / b;                          \
      case GA_SOP_FLOOR_DIVIDE: return divmod_##SUF(a, b, &m);   \
      case GA_SOP_REMAINDER: divmod_##SUF(a, b, &m); return m;   \
      case GA_SOP_POWER: return pow##SUF(a, b);                  \
      default: return -a;   /* negative */                       \
    }                                                            \
  }

/* Complex products, Smith's quotient (a zero divisor gives inf or NaN
** parts) and npy_cpow: integer exponents below 100 by repeated squaring,
** others by the C library's cpow */
#define GA_COMPLEX_OP(F, SUF, CPOW, CMPLX)                                         \
  static void cmul_##SUF(const F *a, const F *b, F *r) {                          \
    F re = a[0] * b[0] - a[1] * b[1], im = a[0] * b[1] + a[1] * b[0];             \
    r[0] = re;                                                                    \
    r[1] = im;                                                                    \
  }                                                                               \
  static void cdiv_##SUF(const F *a, const F *b, F *r) {                          \
    F abr = fabs##SUF(b[0]), abi = fabs##SUF(b[1]), rat, scl, re, im;             \
    if (abr >= abi) {                                                             \
      if (abr == 0 && abi == 0) {                                                 \
        re = a[0] / abr;                                                          \
        im = a[1] / abi;                                                          \
      } else {                                                                    \
        rat = b[1] / b[0];                                                        \
        scl = (F)1.0 / (b[0] + b[1] * rat);                                       \
        re = (a[0] + a[1] * rat) * scl;                                           \
        im = (a[1] - a[0] * rat) * scl;                                           \
      }                                                                           \
    } else {                                                                      \
      rat = b[0] / b[1];                                                          \
      scl = (F)1.0 / (b[1] + b[0] * rat);                                         \
      re = (a[0] * rat + a[1]) * scl;                                             \
      im = (a[1] * rat - a[0]) * scl;                                             \
    }                                                                             \
    r[0] = re;                                                                    \
    r[1] = im;                                                                    \
  }                                                                               \
  static void cpow_##SUF(const F *a, const F *b, F *r) {                          \
    static const F one[2] = {1, 0};                                               \
    if (b[0] == 0 && b[1] == 0) {                                                 \
      r[0] = 1;                                                                   \
      r[1] = 0;                                                                   \
      return;                                                                     \
    }                                                                             \
    if (a[0] == 0 && a[1] == 0) {                                                 \
      r[0] = r[1] = (b[0] > 0 && b[1] == 0) ? (F)0 : (F)NAN;                      \
      return;                                                                     \
    }                                                                             \
    if (b[1] == 0 && b[0] > -100 && b[0] < 100 && b[0] == (F)(int)b[0]) {          \
      int n = (int)b[0];                                                          \
      if (n == 1) {                                                               \
        r[0] = a[0];                                                              \
        r[1] = a[1];                                                              \
      } else if (n == 2) {                                                        \
        cmul_##SUF(a, a, r);                                                      \
      } else if (n == 3) {                                                        \
        F sq[2];                                                                  \
        cmul_##SUF(a, a, sq);                                                     \
        cmul_##SUF(a, sq, r);                                                     \
      } else {                                                                    \
        F acc[2] = {1, 0}, p[2] = {a[0], a[1]};                                   \
        for (int m = n < 0 ? -n : n; m; m >>= 1) {                                \
          if (m & 1) cmul_##SUF(acc, p, acc);                                     \
          if (m > 1) cmul_##SUF(p, p, p);                                         \
        }                                                                         \
        if (n < 0) cdiv_##SUF(one, acc, r);                                       \
        else {                                                                    \
          r[0] = acc[0];                                                          \
          r[1] = acc[1];                                                          \
        }                                                                         \
      }                                                                           \
      return;                                                                     \
    }                                                                             \
    F complex z = CPOW(CMPLX(a[0], a[1]), CMPLX(b[0], b[1]));                     \
    r[0] = creal##SUF(z);                                                         \
    r[1] = cimag##SUF(z);                                                         \
  }                                                                               \
  static void complex_op_##SUF(ga_sop op, const F *a, const F *b, F *r) {         \
    switch (op) {                                                                 \
      case GA_SOP_ADD: r[0] = a[0] + b[0]; r[1] = a[1] + b[1]; break;             \
      case GA_SOP_SUBTRACT: r[0] = a[0] - b[0]; r[1] = a[1] - b[1]; break;        \
      case GA_SOP_MULTIPLY: cmul_##SUF(a, b, r); break;                           \
      case GA_SOP_DIVIDE: cdiv_##SUF(a, b, r); break;                             \
      case GA_SOP_POWER: cpow_##SUF(a, b, r); break;                              \
      default: r[0] = -a[0]; r[1] = -a[1]; break;   /* negative */                \
    }                                                                             \
  }

GA_DIVMOD(float, f)
GA_DIVMOD(double, )
GA_FLOAT_OP(float, f)
GA_FLOAT_OP(double, )
GA_COMPLEX_OP(float, f, cpowf, CMPLXF)
GA_COMPLEX_OP(double, , cpow, CMPLX)

/* ===================================================================== */
/* the operation                                                         */
/* ===================================================================== */

static uint64_t int_pattern(int t, const ga_value *v) {
  ga_value w;
  ga_value_cast(GA_IS_SIGNED(t) ? GA_INT64 : GA_UINT64, &w, t, v);
  return w.u64;
}

const char *ga_sop_apply(ga_sop op, int in, int out, const ga_value *a, const ga_value *b, ga_value *r) {
  static const ga_value zero;
  if (!b) b = &zero;
  memset(r, 0, sizeof *r);
  switch (ga_dtypes[in].kind) {
    case 'b':
      r->b = (uint8_t)bool_op(op, a->b != 0, b->b != 0);
      return NULL;
    case 'f': {
      if (in == GA_FLOAT64) {
        r->f64 = float_op_(op, a->f64, b->f64);
        return NULL;
      }
      /* narrower floats compute in float32 and round once, as NumPy's half */
      ga_value x, y, z;
      ga_value_cast(GA_FLOAT32, &x, in, a);
      ga_value_cast(GA_FLOAT32, &y, in, b);
      z.f32 = float_op_f(op, x.f32, y.f32);
      ga_value_cast(in, r, GA_FLOAT32, &z);
      return NULL;
    }
    case 'c':
      if (in == GA_COMPLEX64) complex_op_f(op, a->c64, b->c64, r->c64);
      else complex_op_(op, a->c128, b->c128, r->c128);
      return NULL;
    default:
      break;
  }
  uint64_t x = int_pattern(in, a), y = int_pattern(in, b), z;
  if (out != in) {   /* divide: the integers as doubles */
    int sgn = GA_IS_SIGNED(in);
    r->f64 = (sgn ? (double)(int64_t)x : (double)x) / (sgn ? (double)(int64_t)y : (double)y);
    return NULL;
  }
  const char *why = int_op(op, in, x, y, &z);
  if (why) return why;
  ga_value w;
  w.u64 = z;
  ga_value_cast(in, r, GA_UINT64, &w);   /* keeps the low bits: wraps as NumPy does */
  return NULL;
}

/* ===================================================================== */
/* comparison                                                            */
/* ===================================================================== */

static int integral(int t) { return t == GA_BOOL || GA_IS_INT(t); }

int ga_value_compare(int P, int ta, const ga_value *a, int tb, const ga_value *b) {
  if (integral(ta) && integral(tb)) {   /* exactly, whatever the signs and widths */
    uint64_t x = int_pattern(ta, a), y = int_pattern(tb, b);
    int xn = GA_IS_SIGNED(ta) && (int64_t)x < 0, yn = GA_IS_SIGNED(tb) && (int64_t)y < 0;
    if (xn != yn) return xn ? -1 : 1;
    return x < y ? -1 : x > y;   /* same sign: the patterns order as the values */
  }
  ga_value x, y;
  ga_value_cast(P, &x, ta, a);
  ga_value_cast(P, &y, tb, b);
  if (GA_IS_COMPLEX(P)) {
    double xr = P == GA_COMPLEX64 ? x.c64[0] : x.c128[0], xi = P == GA_COMPLEX64 ? x.c64[1] : x.c128[1];
    double yr = P == GA_COMPLEX64 ? y.c64[0] : y.c128[0], yi = P == GA_COMPLEX64 ? y.c64[1] : y.c128[1];
    return xr == yr && xi == yi ? 0 : 2;
  }
  double p = ga_value_to_double(P, &x), q = ga_value_to_double(P, &y);
  return p < q ? -1 : p > q ? 1 : p == q ? 0 : 2;
}

/* ===================================================================== */
/* printing                                                              */
/* ===================================================================== */

/* v rounded to the float dtype t */
static double round_to(int t, double v) {
  ga_value d, x;
  d.f64 = v;
  ga_value_cast(t, &x, GA_FLOAT64, &d);
  return ga_value_to_double(t, &x);
}

/* The shortest digits that read back as v in the float dtype t, printed
** as Python's repr prints a float: positional from 1e-4 to 1e16, else
** scientific (float32's 0.1 is 0.1, not 0.100000001490116) */
static void format_float(char *buf, size_t n, int t, double v, int point) {
  if (isnan(v) || isinf(v)) {
    snprintf(buf, n, "%s", isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
    return;
  }
  int p = 1;
  for (;; p++) {
    snprintf(buf, n, "%.*e", p - 1, v);
    if (p == 17 || round_to(t, strtod(buf, NULL)) == v) break;
  }
  int x = atoi(strchr(buf, 'e') + 1);   /* the decimal exponent */
  if (x < -4 || x >= 16) return;
  snprintf(buf, n, "%.*f", p - 1 - x > 0 ? p - 1 - x : 0, v);
  if (point && !strchr(buf, '.')) strncat(buf, ".0", n - strlen(buf) - 1);
}

void ga_value_repr(int t, const ga_value *v, char *buf, size_t n) {
  if (t == GA_BOOL) {
    snprintf(buf, n, "%s", v->b ? "true" : "false");
  } else if (GA_IS_INT(t)) {
    uint64_t x = int_pattern(t, v);
    if (GA_IS_SIGNED(t)) snprintf(buf, n, "%lld", (long long)(int64_t)x);
    else snprintf(buf, n, "%llu", (unsigned long long)x);
  } else if (GA_IS_COMPLEX(t)) {
    int f = ga_component_dtype(t);
    double re = t == GA_COMPLEX64 ? v->c64[0] : v->c128[0], im = t == GA_COMPLEX64 ? v->c64[1] : v->c128[1];
    char a[40], b[40];
    format_float(a, sizeof a, f, re, 0);
    format_float(b, sizeof b, f, im, 0);
    snprintf(buf, n, "%s%s%sj", a, b[0] == '-' ? "" : "+", b);
  } else {
    format_float(buf, n, t, ga_value_to_double(t, v), 1);
  }
}
