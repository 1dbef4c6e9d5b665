/*
** promote.c: NumPy 2's promotion of many operands at once (np.result_type
** of several arrays, dtypes and Python scalars). Folding ga_promote over
** the operands pairwise depends on their order: (int16, uint16, float32)
** folds to int32 then float64, but NumPy gives float32. NumPy instead
** reduces the operands' DTypes with PyArray_PromoteDTypeSequence
** (common_dtype.c): a tournament finds the "most knowledgeable" DType, the
** main one, and every other DType is promoted with the main one, never
** with an intermediate result. Weak Lua scalars take part as NumPy's
** abstract Python int, float and complex DTypes (a Lua boolean is NumPy's
** bool, as a Python bool is). This file is that algorithm over our 15
** dtypes and the 3 abstract ones, with NumPy's common_dtype methods.
*/
#include "core/core.h"

#define NOT_IMPL (-1)
#define CLEARED (-2)

static int is_abstract(int t) { return t >= GA_PY_INT; }

/* NumPy's type numbers order the concrete DTypes: the larger one handles a
** pair (float16 comes after all others, as NPY_HALF does). bfloat16, a
** user DType in NumPy (ml_dtypes), comes after float16: it handles every
** pair it is in, with JAX's rules (ga_promote) */
static int type_num(int t) {
  static const int num[GA_NDTYPES] = {
    [GA_BOOL] = 0, [GA_INT8] = 1, [GA_UINT8] = 2, [GA_INT16] = 3, [GA_UINT16] = 4,
    [GA_INT32] = 5, [GA_UINT32] = 6, [GA_INT64] = 7, [GA_UINT64] = 8,
    [GA_FLOAT32] = 11, [GA_FLOAT64] = 12, [GA_COMPLEX64] = 14, [GA_COMPLEX128] = 15,
    [GA_FLOAT16] = 23, [GA_BFLOAT16] = 24,
  };
  return num[t];
}

/* cls.__common_dtype__(other): one direction only, NOT_IMPL when cls
** leaves the pair to other (default_builtin_common_dtype and the abstract
** DTypes' int/float/complex_common_dtype) */
static int common_dtype(int cls, int other) {
  if (!is_abstract(cls)) {
    if (other == GA_PY_COMPLEX) {
      if (GA_IS_COMPLEX(cls)) return cls;
      if (cls == GA_FLOAT16 || cls == GA_BFLOAT16 || cls == GA_FLOAT32) return GA_COMPLEX64;
      if (cls == GA_FLOAT64) return GA_COMPLEX128;
      return NOT_IMPL;
    }
    if (other == GA_PY_FLOAT) return GA_IS_FLOAT(cls) || GA_IS_COMPLEX(cls) ? cls : NOT_IMPL;
    if (other == GA_PY_INT) return cls != GA_BOOL ? cls : NOT_IMPL;
    if (type_num(other) > type_num(cls)) return NOT_IMPL;
    return (int)ga_promote((ga_dtype)cls, (ga_dtype)other);
  }
  int concrete_int = !is_abstract(other) && (other == GA_BOOL || GA_IS_INT(other));
  switch (cls) {
    case GA_PY_INT:
      return other == GA_BOOL ? GA_INT64 : NOT_IMPL;
    case GA_PY_FLOAT:
      if (concrete_int) return GA_FLOAT64;
      return other == GA_PY_INT ? GA_PY_FLOAT : NOT_IMPL;
    default:  /* GA_PY_COMPLEX */
      if (concrete_int) return GA_COMPLEX128;
      return other == GA_PY_INT || other == GA_PY_FLOAT ? GA_PY_COMPLEX : NOT_IMPL;
  }
}

/* PyArray_CommonDType: both directions */
static int common_both(int a, int b) {
  if (a == b) return a;
  int r = common_dtype(a, b);
  return r == NOT_IMPL ? common_dtype(b, a) : r;
}

/* reduce_dtypes_to_most_knowledgeable: pairs the first half with the
** second (the first with the last, ...), moving the one that handles each
** pair to the front and clearing the other when it cannot change the
** result; recurses on the front until one is left. Returns the last
** pair's promotion (or NOT_IMPL). None of our DTypes is flagged abstract in
** NumPy's sense (the Python scalar DTypes are not), so there is no
** priority inversion. */
static int most_knowledgeable(int length, int *t) {
  int half = length / 2, res = NOT_IMPL;
  for (int low = 0; low < half; low++) {
    int high = length - 1 - low;
    res = t[high] == t[low] ? t[low] : common_dtype(t[low], t[high]);
    if (res == NOT_IMPL) {
      int tmp = t[low];
      t[low] = t[high];
      t[high] = tmp;
    }
    if (res == t[low]) t[high] = CLEARED;
  }
  return length == 2 ? res : most_knowledgeable(length - half, t);
}

int ga_promote_sequence(int n, int *t) {
  if (n <= 0) return -1;
  if (n == 1) return t[0];
  int result = most_knowledgeable(n, t);
  int main_dtype = t[0], start = 2;
  if (result == NOT_IMPL) start = 1;
  for (int i = start; i < n; i++) {
    if (t[i] == CLEARED) continue;
    int promotion = common_dtype(main_dtype, t[i]);
    if (promotion == NOT_IMPL) return -1;   /* no common DType (never for ours) */
    if (result == NOT_IMPL) {
      result = promotion;
      continue;
    }
    result = common_both(result, promotion);
    if (result == NOT_IMPL) return -1;
  }
  return result;
}

int ga_sequence_default(int t) {
  switch (t) {
    case GA_PY_INT: return GA_INT64;
    case GA_PY_FLOAT: return GA_FLOAT64;
    case GA_PY_COMPLEX: return GA_COMPLEX128;
    default: return t;
  }
}
