/*
** fft.h: cuFFT with a per-device plan cache (fft_plans.c) and the
** transforms of ga.fft (fft.c).
*/
/* feature: fft — uses: none */
#ifndef GA_FFT_H
#define GA_FFT_H

#include "libhandle/libhandle.h"

/* fft.c, fft_plans.c: cuFFT with a per-device plan cache */
void ga_open_fft(lua_State *L);
/* fft_plans.c: cuFFT's status names */
extern const ga_statusname ga_cufft_status[];

/* What a plan is: a cufftType, 1 to 3 dims (C order) and a batch count,
** in cuFFT's basic layout (contiguous, one transform after another). */
typedef struct {
  int type, rank;
  long long dims[3];
  long long batch;
} ga_fftkey;
typedef struct ga_fftplan ga_fftplan;
/* The plan for key on ctx's device (entered), from the cache or made now,
** pinned until ga_fftplan_release; *work: the bytes its work area needs */
ga_fftplan *ga_fftplan_acquire(lua_State *L, ga_state *ctx, const ga_fftkey *key, size_t *work);
void ga_fftplan_release(ga_fftplan *p);
/* Bind stream and work area and launch; 0 or a cuFFT status (never raises) */
int ga_fftplan_exec(ga_fftplan *p, cudaStream_t s, void *work, void *in, void *out, int direction);
void ga_fftplan_info(int device, int *size, int *max, uint64_t *hits, uint64_t *misses);
void ga_fftplan_set_size(int device, int max);

#endif
