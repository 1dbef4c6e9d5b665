// elementwise.cuh: the pieces that src/elementwise/ew_codegen.c builds ElementwiseKernel
// and ufunc kernels from. The loops themselves are generated (the user's
// operation, loop_prep and after_loop are spliced in as text, as CuPy
// does); what they share lives here: the index object, raw array views,
// and masked vector loads and stores.

// _ind.size(): the number of elements the call iterates over
struct ga_ind {
  long long n;
  __device__ __forceinline__ long long size() const { return n; }
};

// A raw parameter (CuPy's CArray): x[j] is element j in C order over the
// array's own shape, whatever its strides (bytes). C: the array is
// C-contiguous, so x[j] is data[j].
template <typename T, int ND, bool C>
struct ga_raw {
  T *data;
  long long n;
  long long shape_[ND > 0 ? ND : 1];
  long long strides_[ND > 0 ? ND : 1];

  __device__ __forceinline__ long long size() const { return n; }
  __device__ __forceinline__ int ndim() const { return ND; }
  __device__ __forceinline__ const long long *shape() const { return shape_; }
  __device__ __forceinline__ const long long *strides() const { return strides_; }
  __device__ __forceinline__ T &operator[](long long i) const {
    if constexpr (C || ND <= 1) {
      if constexpr (C || ND == 0) return data[i];
      else return *(T *)((char *)data + i * strides_[0]);
    } else {
      long long off = 0;
#pragma unroll
      for (int d = ND - 1; d >= 1; d--) {
        long long q = i / shape_[d];
        off += (i - q * shape_[d]) * strides_[d];
        i = q;
      }
      off += i * strides_[0];
      return *(T *)((char *)data + off);
    }
  }
  // x[idx] with one index per axis (CuPy's CArray takes an index array)
  template <typename J>
  __device__ __forceinline__ T &operator[](const J (&idx)[ND > 0 ? ND : 1]) const {
    long long off = 0;
#pragma unroll
    for (int d = 0; d < ND; d++) off += (long long)idx[d] * strides_[d];
    return *(T *)((char *)data + off);
  }
};

// _raw_x of a non-raw parameter in the flat loops: contiguous, n elements
template <typename T>
struct ga_flatview {
  T *data;
  long long n;
  __device__ __forceinline__ long long size() const { return n; }
  __device__ __forceinline__ T &operator[](long long i) const { return data[i]; }
};

// The byte offset of operand K for linear index i, through the indexers of
// common.cuh (the same arithmetic as their offsets(), for one operand)
template <int K, int ND, int NOP>
__device__ __forceinline__ long long ga_ix_offset(const ga_indexer32<ND, NOP> &ix, long long j) {
  unsigned i = (unsigned)j;
  int off = 0;
#pragma unroll
  for (int d = ND - 1; d >= 1; d--) {
    unsigned q = (__umulhi(i, ix.mul[d]) + i) >> ix.shift[d];
    off += (int)(i - q * ix.size[d]) * ix.strides[K][d];
    i = q;
  }
  return off + (int)i * ix.strides[K][0];
}
template <int K, int ND, int NOP>
__device__ __forceinline__ long long ga_ix_offset(const ga_indexer64<ND, NOP> &ix, long long j) {
  unsigned long long i = (unsigned long long)j;
  long long off = 0;
#pragma unroll
  for (int d = ND - 1; d >= 1; d--) {
    unsigned long long q = i / ix.size[d];
    off += (long long)(i - q * ix.size[d]) * ix.strides[K][d];
    i = q;
  }
  return off + (long long)i * ix.strides[K][0];
}

// _raw_x of a non-raw parameter in the strided loops: element j of the
// iteration space (C order over the broadcast shape), through the indexer
template <typename T, typename IX, int K>
struct ga_ixview {
  T *data;
  const IX *ix;
  long long n;
  __device__ __forceinline__ long long size() const { return n; }
  __device__ __forceinline__ T &operator[](long long j) const {
    return *(T *)((char *)data + ga_ix_offset<K>(*ix, j));
  }
};

// Vector loads and stores for the flat loops: whole vectors where the
// thread's V elements are all inside [0, n), element by element at the end
template <typename T, int V, typename I>
__device__ __forceinline__ void ga_vload(ga_vec<T, V> &v, const T *p, I e, I n, bool full) {
  if (full) {
    v = *reinterpret_cast<const ga_vec<T, V> *>(p + e);
  } else {
#pragma unroll
    for (int k = 0; k < V; k++)
      if (e + k < n) v.v[k] = p[e + k];
  }
}
template <typename T, int V, typename I>
__device__ __forceinline__ void ga_vstore(const ga_vec<T, V> &v, T *p, I e, I n, bool full) {
  if (full) {
    *reinterpret_cast<ga_vec<T, V> *>(p + e) = v;
  } else {
#pragma unroll
    for (int k = 0; k < V; k++)
      if (e + k < n) p[e + k] = v.v[k];
  }
}
