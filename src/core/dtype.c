/*
** dtype.c: the dtype table, NumPy's promotion rules with weak Lua scalars
** (NEP 50), float16 conversions and host-side C casting. Pure C: no CUDA
** calls, so everything here is specced on machines without a GPU.
*/
#include <math.h>
#include <string.h>

#include "core/core.h"

const ga_dtype_info ga_dtypes[GA_NDTYPES] = {
  {"bool",       1, 'b', "bool",               '?', 0, 0},
  {"int8",       1, 'i', "signed char",        'b', 0, 0},
  {"int16",      2, 'i', "short",              'h', 0, 0},
  {"int32",      4, 'i', "int",                'i', 0, 0},
  {"int64",      8, 'i', "long long",          'l', 0, 0},
  {"uint8",      1, 'u', "unsigned char",      'B', 0, 0},
  {"uint16",     2, 'u', "unsigned short",     'H', 0, 0},
  {"uint32",     4, 'u', "unsigned int",       'I', 0, 0},
  {"uint64",     8, 'u', "unsigned long long", 'L', 0, 0},
  {"float16",    2, 'f', "float16",            'e', 10, 5},
  {"float32",    4, 'f', "float",              'f', 23, 8},
  {"float64",    8, 'f', "double",             'd', 52, 11},
  {"complex64",  8, 'c', "complex64",          'F', 23, 8},
  {"complex128", 16, 'c', "complex128",        'D', 52, 11},
  /* NumPy has no bfloat16: 'E' is ml_dtypes' type character for it */
  {"bfloat16",   2, 'f', "bfloat16",           'E', 7, 8},
};

int ga_dtype_lookup(const char *name) {
  for (int t = 0; t < GA_NDTYPES; t++)
    if (ga_dtypes[t].name[0] == name[0] && strcmp(ga_dtypes[t].name, name) == 0) return t;
  return -1;
}

/* ===================================================================== */
/* promotion                                                             */
/* ===================================================================== */

static int int_bits(ga_dtype t) { return 8 * ga_dtypes[t].itemsize; }

static ga_dtype signed_of_bits(int bits) {
  switch (bits) {
    case 8: return GA_INT8;
    case 16: return GA_INT16;
    case 32: return GA_INT32;
    default: return GA_INT64;
  }
}

/* The smallest float that holds every value of an integer type, as NumPy
** decides it (int8 -> float16, int16 -> float32, wider -> float64) */
static ga_dtype float_for_int(ga_dtype t) {
  int bits = int_bits(t);
  return bits == 8 ? GA_FLOAT16 : bits == 16 ? GA_FLOAT32 : GA_FLOAT64;
}

static ga_dtype complex_for_float(ga_dtype f) {
  return f == GA_FLOAT64 ? GA_COMPLEX128 : GA_COMPLEX64;
}

static ga_dtype max_dtype(ga_dtype a, ga_dtype b) { return a > b ? a : b; }

/* bfloat16 with another dtype, as JAX and ml_dtypes promote it (API.md
** §17): booleans and integers of any width give bfloat16, float16 float32
** (neither holds the other), wider floats and complex numbers themselves */
static ga_dtype promote_bfloat16(ga_dtype other) {
  if (other == GA_BOOL || GA_IS_INT(other)) return GA_BFLOAT16;
  if (other == GA_FLOAT16) return GA_FLOAT32;
  return other;
}

ga_dtype ga_promote(ga_dtype a, ga_dtype b) {
  if (a == b) return a;
  if (a == GA_BFLOAT16) return promote_bfloat16(b);
  if (b == GA_BFLOAT16) return promote_bfloat16(a);
  if (a == GA_BOOL) return b;
  if (b == GA_BOOL) return a;
  if (a > b) { ga_dtype t = a; a = b; b = t; }   /* order: ints < floats < complex */
  if (GA_IS_INT(a) && GA_IS_INT(b)) {
    if (GA_IS_SIGNED(a) == GA_IS_SIGNED(b))
      return int_bits(a) > int_bits(b) ? a : b;
    ga_dtype s = GA_IS_SIGNED(a) ? a : b, u = GA_IS_SIGNED(a) ? b : a;
    if (int_bits(s) > int_bits(u)) return s;
    if (int_bits(u) < 64) return signed_of_bits(2 * int_bits(u));
    return GA_FLOAT64;               /* uint64 with any signed type */
  }
  if (GA_IS_INT(a)) {
    ga_dtype f = float_for_int(a);
    if (GA_IS_FLOAT(b)) return max_dtype(f, b);
    return max_dtype(complex_for_float(f), b);
  }
  /* a float, b float or complex */
  if (GA_IS_FLOAT(b)) return b;
  return max_dtype(complex_for_float(a), b);
}

ga_dtype ga_promote_weak(ga_dtype strong, char kind) {
  switch (kind) {
    case 'b':
      return strong;
    case 'i':
      return strong == GA_BOOL ? GA_INT64 : strong;
    case 'f':
      return (strong == GA_BOOL || GA_IS_INT(strong)) ? GA_FLOAT64 : strong;
    default:  /* 'c' */
      if (strong == GA_BOOL || GA_IS_INT(strong)) return GA_COMPLEX128;
      if (GA_IS_FLOAT(strong)) return complex_for_float(strong);
      return strong;
  }
}

ga_dtype ga_default_for_kind(char kind) {
  switch (kind) {
    case 'b': return GA_BOOL;
    case 'i': return GA_INT64;
    case 'f': return GA_FLOAT64;
    default: return GA_COMPLEX128;
  }
}

/* ===================================================================== */
/* float16                                                               */
/* ===================================================================== */

uint16_t ga_double_to_half(double d) {
  uint16_t sign = signbit(d) ? 0x8000 : 0;
  double a = fabs(d);
  if (isnan(d)) return sign | 0x7e00;
  if (a >= 65520.0) return sign | 0x7c00;   /* rounds past 65504: inf */
  if (a < 0x1p-14) {                        /* subnormal (or zero) */
    /* a * 2^24 is exact; 1024 rounds up into the smallest normal, which is
    ** exactly what the bit pattern 0x400 means */
    return sign | (uint16_t)nearbyint(a * 0x1p24);
  }
  int k;
  double f = frexp(a, &k);                  /* a = f * 2^k, f in [0.5, 1) */
  int e = k - 1;                            /* a = 2f * 2^e */
  /* a mantissa that rounds up to 2048 carries into the exponent by itself */
  unsigned m = (unsigned)nearbyint(2.0 * f * 1024.0);
  return sign | (uint16_t)(((unsigned)(e + 15) << 10) + m - 1024);
}

double ga_half_to_double(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 31) v = m ? NAN : INFINITY;
  else if (e == 0) v = ldexp(m, -24);
  else v = ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}

/* ===================================================================== */
/* bfloat16                                                              */
/* ===================================================================== */

static uint32_t float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

uint16_t ga_float_to_bfloat16(float f) {
  uint32_t u = float_bits(f);
  if (isnan(f)) return (uint16_t)((u >> 16) | 0x0040);   /* stays a (quiet) NaN */
  /* round to nearest, ties to the even upper half; a carry out of the
  ** mantissa steps the exponent, up to infinity */
  u += 0x7fff + ((u >> 16) & 1);
  return (uint16_t)(u >> 16);
}

uint16_t ga_double_to_bfloat16(double d) {
  if (isnan(d)) return signbit(d) ? 0xffc0 : 0x7fc0;
  /* Round to odd into float: truncate toward zero, and set the last bit
  ** when anything was cut off. float keeps 16 bits more than bfloat16
  ** (subnormals included), so the one rounding below sees the exact
  ** value's side of every bfloat16 midpoint: no double rounding. */
  float f = (float)d;
  if ((double)f != d) {
    if (fabs((double)f) > fabs(d)) f = nextafterf(f, 0.0f);   /* inf steps to the largest float */
    uint32_t u = float_bits(f) | 1;
    memcpy(&f, &u, sizeof f);
  }
  return ga_float_to_bfloat16(f);
}

double ga_bfloat16_to_double(uint16_t b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* An integer (its magnitude and sign) as bfloat16 with one rounding: past
** 2^53 the double it goes through is rounded to odd (the bits cut off set
** the last one kept), which the rounding to float and then to bfloat16
** keeps exact at their midpoints */
static uint16_t int_to_bfloat16(int negative, uint64_t mag) {
  double d = (double)mag;
  if (mag >> 53) {
    int shift = 64 - __builtin_clzll(mag) - 53;
    uint64_t kept = mag >> shift;
    if (mag & ((UINT64_C(1) << shift) - 1)) kept |= 1;
    d = ldexp((double)kept, shift);
  }
  return ga_double_to_bfloat16(negative ? -d : d);
}

int ga_compute_dtype(int t) {
  return t == GA_FLOAT16 || t == GA_BFLOAT16 ? GA_FLOAT32 : t;
}

/* ===================================================================== */
/* Lua numbers into storage                                              */
/* ===================================================================== */

static const char *store_int_checked(ga_dtype t, lua_Integer v, ga_value *out) {
  switch (t) {
    case GA_INT8:  if (v < INT8_MIN || v > INT8_MAX) return "does not fit"; out->i8 = (int8_t)v; break;
    case GA_INT16: if (v < INT16_MIN || v > INT16_MAX) return "does not fit"; out->i16 = (int16_t)v; break;
    case GA_INT32: if (v < INT32_MIN || v > INT32_MAX) return "does not fit"; out->i32 = (int32_t)v; break;
    case GA_INT64: out->i64 = v; break;
    case GA_UINT8: if (v < 0 || v > UINT8_MAX) return "does not fit"; out->u8 = (uint8_t)v; break;
    case GA_UINT16: if (v < 0 || v > UINT16_MAX) return "does not fit"; out->u16 = (uint16_t)v; break;
    case GA_UINT32: if (v < 0 || v > (lua_Integer)UINT32_MAX) return "does not fit"; out->u32 = (uint32_t)v; break;
    case GA_UINT64: if (v < 0) return "does not fit"; out->u64 = (uint64_t)v; break;
    default: return "is not an integer type";
  }
  return NULL;
}

static const char *store_float_checked(ga_dtype t, double v, ga_value *out) {
  switch (t) {
    case GA_FLOAT16: {
      uint16_t h = ga_double_to_half(v);
      if (isfinite(v) && (h & 0x7c00) == 0x7c00) return "does not fit";
      out->f16 = h;
      break;
    }
    case GA_BFLOAT16: {
      uint16_t h = ga_double_to_bfloat16(v);
      if (isfinite(v) && (h & 0x7f80) == 0x7f80) return "does not fit";
      out->bf16 = h;
      break;
    }
    case GA_FLOAT32:
      if (isfinite(v) && fabs(v) > 3.4028235677973366e38) return "does not fit";
      out->f32 = (float)v;
      break;
    case GA_FLOAT64: out->f64 = v; break;
    case GA_COMPLEX64:
      if (isfinite(v) && fabs(v) > 3.4028235677973366e38) return "does not fit";
      out->c64[0] = (float)v; out->c64[1] = 0.0f;
      break;
    case GA_COMPLEX128: out->c128[0] = v; out->c128[1] = 0.0; break;
    default: return "is not a float type";
  }
  return NULL;
}

const char *ga_value_from_int(ga_dtype t, lua_Integer v, ga_value *out) {
  memset(out, 0, sizeof *out);
  if (t == GA_BOOL) { out->b = v != 0; return NULL; }
  if (t == GA_BFLOAT16) {   /* every int64 is below bfloat16's largest value */
    out->bf16 = int_to_bfloat16(v < 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
    return NULL;
  }
  if (GA_IS_INT(t)) return store_int_checked(t, v, out);
  return store_float_checked(t, (double)v, out);
}

const char *ga_value_from_float(ga_dtype t, double v, ga_value *out) {
  memset(out, 0, sizeof *out);
  if (t == GA_BOOL) { out->b = v != 0; return NULL; }   /* NaN is true, as in C */
  if (GA_IS_INT(t)) {
    double tv = trunc(v);                 /* NumPy truncates toward zero */
    if (!isfinite(tv)) return "does not fit";
    if (t == GA_UINT64) {
      if (tv < 0 || tv >= 0x1p64) return "does not fit";
      out->u64 = (uint64_t)tv;
      return NULL;
    }
    if (tv < -0x1p63 || tv >= 0x1p63) return "does not fit";
    return store_int_checked(t, (lua_Integer)tv, out);
  }
  return store_float_checked(t, v, out);
}

void ga_value_from_complex(ga_dtype t, double re, double im, ga_value *out) {
  memset(out, 0, sizeof *out);
  if (t == GA_COMPLEX64) { out->c64[0] = (float)re; out->c64[1] = (float)im; }
  else if (t == GA_COMPLEX128) { out->c128[0] = re; out->c128[1] = im; }
  else {
    ga_value c;
    c.c128[0] = re; c.c128[1] = im;
    ga_value_cast(t, out, GA_COMPLEX128, &c);
  }
}

/* ===================================================================== */
/* C casting between storage values                                      */
/* ===================================================================== */

/* A source value in one of three canonical forms */
typedef struct {
  char form;          /* 'i' integer (bits in u, signed says how to read), 'f', 'c' */
  int is_signed;
  uint64_t u;
  double re, im;
} canon;

static canon read_canon(ga_dtype t, const ga_value *v) {
  canon c = {0, 0, 0, 0.0, 0.0};
  switch (t) {
    case GA_BOOL:   c.form = 'i'; c.u = v->b != 0; break;
    case GA_INT8:   c.form = 'i'; c.is_signed = 1; c.u = (uint64_t)(int64_t)v->i8; break;
    case GA_INT16:  c.form = 'i'; c.is_signed = 1; c.u = (uint64_t)(int64_t)v->i16; break;
    case GA_INT32:  c.form = 'i'; c.is_signed = 1; c.u = (uint64_t)(int64_t)v->i32; break;
    case GA_INT64:  c.form = 'i'; c.is_signed = 1; c.u = (uint64_t)v->i64; break;
    case GA_UINT8:  c.form = 'i'; c.u = v->u8; break;
    case GA_UINT16: c.form = 'i'; c.u = v->u16; break;
    case GA_UINT32: c.form = 'i'; c.u = v->u32; break;
    case GA_UINT64: c.form = 'i'; c.u = v->u64; break;
    case GA_FLOAT16: c.form = 'f'; c.re = ga_half_to_double(v->f16); break;
    case GA_BFLOAT16: c.form = 'f'; c.re = ga_bfloat16_to_double(v->bf16); break;
    case GA_FLOAT32: c.form = 'f'; c.re = v->f32; break;
    case GA_FLOAT64: c.form = 'f'; c.re = v->f64; break;
    case GA_COMPLEX64: c.form = 'c'; c.re = v->c64[0]; c.im = v->c64[1]; break;
    default: c.form = 'c'; c.re = v->c128[0]; c.im = v->c128[1]; break;
  }
  return c;
}

/* float -> integer as the device does it (cvt.rzi saturates, NaN gives 0) */
static uint64_t float_to_int_bits(double d, ga_dtype to) {
  if (isnan(d)) return 0;
  d = trunc(d);
  if (GA_IS_UNSIGNED(to)) {
    double max = to == GA_UINT64 ? 0x1p64 - 1 : ldexp(1.0, int_bits(to)) - 1;
    if (d <= 0) return 0;
    if (d >= max) return to == GA_UINT64 ? UINT64_MAX : (uint64_t)max;
    return (uint64_t)d;
  }
  double lim = ldexp(1.0, int_bits(to) - 1);
  if (d <= -lim) return (uint64_t)(int64_t)-lim;
  if (d >= lim) return to == GA_INT64 ? (uint64_t)INT64_MAX : (uint64_t)(int64_t)(lim - 1);
  return (uint64_t)(int64_t)d;
}

static double canon_real(const canon *c) {
  if (c->form != 'i') return c->re;
  return c->is_signed ? (double)(int64_t)c->u : (double)c->u;
}

static float canon_real_f32(const canon *c) {
  if (c->form != 'i') return (float)c->re;     /* one rounding from double */
  return c->is_signed ? (float)(int64_t)c->u : (float)c->u;
}

void ga_value_cast(ga_dtype to, ga_value *out, ga_dtype from, const ga_value *in) {
  canon c = read_canon(from, in);
  ga_value r;
  memset(&r, 0, sizeof r);
  if (to == GA_BOOL) {
    r.b = c.form == 'i' ? c.u != 0 : (c.re != 0 || c.im != 0 || isnan(c.re) || isnan(c.im));
  } else if (GA_IS_INT(to)) {
    uint64_t bits = c.form == 'i' ? c.u : float_to_int_bits(c.re, to);
    switch (to) {   /* wrap to the width, as C conversions do on two's complement */
      case GA_INT8: r.i8 = (int8_t)bits; break;
      case GA_INT16: r.i16 = (int16_t)bits; break;
      case GA_INT32: r.i32 = (int32_t)bits; break;
      case GA_INT64: r.i64 = (int64_t)bits; break;
      case GA_UINT8: r.u8 = (uint8_t)bits; break;
      case GA_UINT16: r.u16 = (uint16_t)bits; break;
      case GA_UINT32: r.u32 = (uint32_t)bits; break;
      default: r.u64 = bits; break;
    }
  } else if (to == GA_FLOAT16) {
    r.f16 = ga_double_to_half(canon_real(&c));
  } else if (to == GA_BFLOAT16) {
    int neg = c.form == 'i' && c.is_signed && (int64_t)c.u < 0;
    r.bf16 = c.form == 'i' ? int_to_bfloat16(neg, neg ? 0 - c.u : c.u) : ga_double_to_bfloat16(c.re);
  } else if (to == GA_FLOAT32) {
    r.f32 = canon_real_f32(&c);
  } else if (to == GA_FLOAT64) {
    r.f64 = canon_real(&c);
  } else if (to == GA_COMPLEX64) {
    r.c64[0] = canon_real_f32(&c);
    r.c64[1] = (float)c.im;
  } else {
    r.c128[0] = canon_real(&c);
    r.c128[1] = c.im;
  }
  *out = r;
}

double ga_value_to_double(ga_dtype t, const ga_value *v) {
  canon c = read_canon(t, v);
  return canon_real(&c);
}

/* ===================================================================== */
/* NumPy's casting rules between dtypes                                  */
/* ===================================================================== */

int ga_can_cast_safe(int from, int to) {
  return ga_promote((ga_dtype)from, (ga_dtype)to) == (ga_dtype)to;
}

static int kind_order(int t) {
  switch (ga_dtypes[t].kind) {
    case 'b': return 0;
    case 'u': return 1;
    case 'i': return 2;
    case 'f': return 3;
    default: return 4;
  }
}

int ga_can_cast_same_kind(int from, int to) {
  return ga_can_cast_safe(from, to) || kind_order(from) <= kind_order(to);
}

int ga_can_cast(int from, int to, const char *casting) {
  if (strcmp(casting, "no") == 0 || strcmp(casting, "equiv") == 0) return from == to;
  if (strcmp(casting, "safe") == 0) return ga_can_cast_safe(from, to);
  if (strcmp(casting, "same_kind") == 0) return ga_can_cast_same_kind(from, to);
  if (strcmp(casting, "unsafe") == 0) return 1;
  return -1;
}

/* the float of the same format: data-driven, so a new float is one row */
int ga_component_dtype(int t) {
  if (ga_dtypes[t].kind != 'c') return t;
  for (int f = 0; f < GA_NDTYPES; f++)
    if (ga_dtypes[f].kind == 'f' && ga_dtypes[f].nmant == ga_dtypes[t].nmant &&
        ga_dtypes[f].nexp == ga_dtypes[t].nexp)
      return f;
  return t;
}
