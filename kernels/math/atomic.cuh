// atomic.cuh: ufunc.at's read-modify-write (lua/gpuarray/elementwise/at.lua).
// ga_atomic_update(p, f) sets *p = f(*p) atomically for any type of 1, 2, 4
// or 8 bytes: a compare-and-swap loop on the word holding *p (the aligned
// 32-bit word for narrow types, touching only *p's bytes). The fast paths
// (atomicAdd, atomicMax, atomicAnd, ...) are chosen by the generator where
// the dtype and the ufunc have one.
template <typename T, typename F>
__device__ __forceinline__ void ga_atomic_update(T *p, const F &f) {
  if constexpr (sizeof(T) == 8) {
    unsigned long long *w = (unsigned long long *)p;
    unsigned long long old = *(volatile unsigned long long *)w, assumed;
    do {
      assumed = old;
      T v = f(*(const T *)&assumed);
      old = atomicCAS(w, assumed, *(const unsigned long long *)&v);
    } while (old != assumed);
  } else if constexpr (sizeof(T) == 4) {
    unsigned *w = (unsigned *)p;
    unsigned old = *(volatile unsigned *)w, assumed;
    do {
      assumed = old;
      T v = f(*(const T *)&assumed);
      old = atomicCAS(w, assumed, *(const unsigned *)&v);
    } while (old != assumed);
  } else {
    unsigned *w = (unsigned *)((unsigned long long)p & ~3ull);
    unsigned shift = (unsigned)((unsigned long long)p & 3ull) * 8u;
    unsigned mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
    unsigned old = *(volatile unsigned *)w, assumed;
    do {
      assumed = old;
      unsigned bits = (assumed & mask) >> shift;
      T cur;
      if constexpr (sizeof(T) == 1) *(unsigned char *)&cur = (unsigned char)bits;
      else *(unsigned short *)&cur = (unsigned short)bits;
      T v = f(cur);
      unsigned nb = sizeof(T) == 1 ? (unsigned)*(const unsigned char *)&v : (unsigned)*(const unsigned short *)&v;
      old = atomicCAS(w, assumed, (assumed & ~mask) | (nb << shift));
    } while (old != assumed);
  }
}
