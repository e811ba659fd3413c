//===- hpp/grid_scoped.h - Scoped atomics of the grid barriers ------------===//
//
// Part of hpp-rewrite. Device runtime, CUDA and HIP backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The scoped atomics, loads, stores and fences the barriers across
/// work-groups are written with (hpp/grid_barrier.h, hpp/grid_wait.h):
/// CUDA as PTX with the memory model's semantics and scopes (sm_70, PTX ISA
/// 6.0; the one-sided fences sm_90, PTX ISA 8.6, else fence.acq_rel), HIP
/// as `__hip_atomic_*` with the matching orders and scopes.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_GRID_SCOPED_H
#define HPP_RUNTIME_GRID_SCOPED_H

#ifndef HPP_RUNTIME_BACKEND
#error "include <hpp/runtime.h>, which selects the backend first"
#endif

#if !defined(HPP_BACKEND_CPU)
namespace hpp {
namespace detail {

/// Scoped atomics: `Gpu` the device (CUDA .gpu, HIP agent), else the
/// work-group (.cta, workgroup). The CUDA forms need sm_70 (PTX ISA 6.0).
namespace scoped {
#if defined(HPP_BACKEND_CUDA)
template <bool Gpu> __device__ __forceinline__ unsigned ldAcquire(unsigned *P) {
  unsigned V;
  if (Gpu)
    asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(V) : "l"(P) : "memory");
  else
    asm volatile("ld.acquire.cta.u32 %0, [%1];" : "=r"(V) : "l"(P) : "memory");
  return V;
}
__device__ __forceinline__ unsigned ldRelaxedGpu(unsigned *P) {
  unsigned V;
  asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(V) : "l"(P) : "memory");
  return V;
}
__device__ __forceinline__ void stReleaseCta(unsigned *P, unsigned V) {
  asm volatile("st.release.cta.u32 [%0], %1;" ::"l"(P), "r"(V) : "memory");
}
template <bool Gpu>
__device__ __forceinline__ unsigned long long addAcqRel(unsigned long long *P,
                                                        unsigned long long V) {
  unsigned long long Old;
  if (Gpu)
    asm volatile("atom.acq_rel.gpu.add.u64 %0, [%1], %2;"
                 : "=l"(Old)
                 : "l"(P), "l"(V)
                 : "memory");
  else
    asm volatile("atom.acq_rel.cta.add.u64 %0, [%1], %2;"
                 : "=l"(Old)
                 : "l"(P), "l"(V)
                 : "memory");
  return Old;
}
__device__ __forceinline__ unsigned long long
exchAcqRelCta(unsigned long long *P, unsigned long long V) {
  unsigned long long Old;
  asm volatile("atom.acq_rel.cta.exch.b64 %0, [%1], %2;"
               : "=l"(Old)
               : "l"(P), "l"(V)
               : "memory");
  return Old;
}
__device__ __forceinline__ void addRelaxedGpu(unsigned long long *P,
                                              unsigned long long V) {
  asm volatile("red.relaxed.gpu.add.u64 [%0], %1;" ::"l"(P), "l"(V) : "memory");
}
__device__ __forceinline__ void addReleaseGpu(unsigned *P, unsigned V) {
  asm volatile("red.release.gpu.add.u32 [%0], %1;" ::"l"(P), "r"(V) : "memory");
}
__device__ __forceinline__ unsigned addReleaseGpuOld(unsigned *P, unsigned V) {
  unsigned Old;
  asm volatile("atom.release.gpu.add.u32 %0, [%1], %2;"
               : "=r"(Old)
               : "l"(P), "r"(V)
               : "memory");
  return Old;
}
__device__ __forceinline__ void stReleaseGpu(unsigned *P, unsigned V) {
  asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(P), "r"(V) : "memory");
}
/// After relaxed reads that saw a release: with them, an acquire pattern.
__device__ __forceinline__ void fenceAcquireGpu() {
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
}
__device__ __forceinline__ unsigned casRelaxedCta(unsigned *P, unsigned C,
                                                  unsigned V) {
  unsigned Old;
  asm volatile("atom.relaxed.cta.cas.b32 %0, [%1], %2, %3;"
               : "=r"(Old)
               : "l"(P), "r"(C), "r"(V)
               : "memory");
  return Old;
}
__device__ __forceinline__ unsigned addAcqRelGpuOld(unsigned *P, unsigned V) {
  unsigned Old;
  asm volatile("atom.acq_rel.gpu.add.u32 %0, [%1], %2;"
               : "=r"(Old)
               : "l"(P), "r"(V)
               : "memory");
  return Old;
}
__device__ __forceinline__ unsigned addRelaxedGpuOld(unsigned *P, unsigned V) {
  unsigned Old;
  asm volatile("atom.relaxed.gpu.add.u32 %0, [%1], %2;"
               : "=r"(Old)
               : "l"(P), "r"(V)
               : "memory");
  return Old;
}
__device__ __forceinline__ unsigned long long
addRelaxedGpuOld(unsigned long long *P, unsigned long long V) {
  unsigned long long Old;
  asm volatile("atom.relaxed.gpu.add.u64 %0, [%1], %2;"
               : "=l"(Old)
               : "l"(P), "l"(V)
               : "memory");
  return Old;
}
__device__ __forceinline__ void addRelaxedGpu(unsigned *P, unsigned V) {
  asm volatile("red.relaxed.gpu.add.u32 [%0], %1;" ::"l"(P), "r"(V) : "memory");
}
/// One-sided fences (PTX ISA 8.6, sm_90): a release fence then a strong
/// write is a release pattern, a strong read then an acquire fence an
/// acquire pattern. Before: fence.acq_rel.gpu, which is both.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 &&                          \
    (__CUDACC_VER_MAJOR__ > 12 ||                                              \
     (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8))
#define HPP_GRID_FENCE(Sem) asm volatile("fence." Sem ".gpu;" ::: "memory")
#else
#define HPP_GRID_FENCE(Sem) asm volatile("fence.acq_rel.gpu;" ::: "memory")
#endif
__device__ __forceinline__ void fenceReleaseOnlyGpu() {
  HPP_GRID_FENCE("release");
}
__device__ __forceinline__ void fenceAcquireOnlyGpu() {
  HPP_GRID_FENCE("acquire");
}
#undef HPP_GRID_FENCE
__device__ __forceinline__ unsigned long long
addReleaseCtaOld(unsigned long long *P, unsigned long long V) {
  unsigned long long Old;
  asm volatile("atom.release.cta.add.u64 %0, [%1], %2;"
               : "=l"(Old)
               : "l"(P), "l"(V)
               : "memory");
  return Old;
}
__device__ __forceinline__ unsigned long long
exchAcquireCta(unsigned long long *P, unsigned long long V) {
  unsigned long long Old;
  asm volatile("atom.acquire.cta.exch.b64 %0, [%1], %2;"
               : "=l"(Old)
               : "l"(P), "l"(V)
               : "memory");
  return Old;
}
__device__ __forceinline__ unsigned long long
ldRelaxedCta(unsigned long long *P) {
  unsigned long long V;
  asm volatile("ld.relaxed.cta.u64 %0, [%1];" : "=l"(V) : "l"(P) : "memory");
  return V;
}
__device__ __forceinline__ unsigned ldRelaxedCta(unsigned *P) {
  unsigned V;
  asm volatile("ld.relaxed.cta.u32 %0, [%1];" : "=r"(V) : "l"(P) : "memory");
  return V;
}
__device__ __forceinline__ void maxReleaseCta(unsigned *P, unsigned V) {
  asm volatile("red.release.cta.max.u32 [%0], %1;" ::"l"(P), "r"(V) : "memory");
}
__device__ __forceinline__ void addRelaxedCta(unsigned *P, unsigned V) {
  asm volatile("red.relaxed.cta.add.u32 [%0], %1;" ::"l"(P), "r"(V) : "memory");
}
#else
#define HPP_HIP_SCOPE(Gpu)                                                     \
  (Gpu ? __HIP_MEMORY_SCOPE_AGENT : __HIP_MEMORY_SCOPE_WORKGROUP)
template <bool Gpu> __device__ __forceinline__ unsigned ldAcquire(unsigned *P) {
  return __hip_atomic_load(P, __ATOMIC_ACQUIRE, HPP_HIP_SCOPE(Gpu));
}
__device__ __forceinline__ unsigned ldRelaxedGpu(unsigned *P) {
  return __hip_atomic_load(P, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
__device__ __forceinline__ void stReleaseCta(unsigned *P, unsigned V) {
  __hip_atomic_store(P, V, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_WORKGROUP);
}
template <bool Gpu>
__device__ __forceinline__ unsigned long long addAcqRel(unsigned long long *P,
                                                        unsigned long long V) {
  return __hip_atomic_fetch_add(P, V, __ATOMIC_ACQ_REL, HPP_HIP_SCOPE(Gpu));
}
__device__ __forceinline__ unsigned long long
exchAcqRelCta(unsigned long long *P, unsigned long long V) {
  return __hip_atomic_exchange(P, V, __ATOMIC_ACQ_REL,
                               __HIP_MEMORY_SCOPE_WORKGROUP);
}
__device__ __forceinline__ void addRelaxedGpu(unsigned long long *P,
                                              unsigned long long V) {
  (void)__hip_atomic_fetch_add(P, V, __ATOMIC_RELAXED,
                               __HIP_MEMORY_SCOPE_AGENT);
}
__device__ __forceinline__ void addReleaseGpu(unsigned *P, unsigned V) {
  (void)__hip_atomic_fetch_add(P, V, __ATOMIC_RELEASE,
                               __HIP_MEMORY_SCOPE_AGENT);
}
__device__ __forceinline__ unsigned addReleaseGpuOld(unsigned *P, unsigned V) {
  return __hip_atomic_fetch_add(P, V, __ATOMIC_RELEASE,
                                __HIP_MEMORY_SCOPE_AGENT);
}
__device__ __forceinline__ void stReleaseGpu(unsigned *P, unsigned V) {
  __hip_atomic_store(P, V, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
}
__device__ __forceinline__ void fenceAcquireGpu() {
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
}
__device__ __forceinline__ unsigned casRelaxedCta(unsigned *P, unsigned C,
                                                  unsigned V) {
  __hip_atomic_compare_exchange_strong(P, &C, V, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_WORKGROUP);
  return C; // The value seen: the expected one when it succeeded.
}
__device__ __forceinline__ unsigned addAcqRelGpuOld(unsigned *P, unsigned V) {
  return __hip_atomic_fetch_add(P, V, __ATOMIC_ACQ_REL,
                                __HIP_MEMORY_SCOPE_AGENT);
}
__device__ __forceinline__ unsigned addRelaxedGpuOld(unsigned *P, unsigned V) {
  return __hip_atomic_fetch_add(P, V, __ATOMIC_RELAXED,
                                __HIP_MEMORY_SCOPE_AGENT);
}
__device__ __forceinline__ unsigned long long
addRelaxedGpuOld(unsigned long long *P, unsigned long long V) {
  return __hip_atomic_fetch_add(P, V, __ATOMIC_RELAXED,
                                __HIP_MEMORY_SCOPE_AGENT);
}
__device__ __forceinline__ void addRelaxedGpu(unsigned *P, unsigned V) {
  (void)__hip_atomic_fetch_add(P, V, __ATOMIC_RELAXED,
                               __HIP_MEMORY_SCOPE_AGENT);
}
__device__ __forceinline__ void fenceReleaseOnlyGpu() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
}
__device__ __forceinline__ void fenceAcquireOnlyGpu() {
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
}
__device__ __forceinline__ unsigned long long
addReleaseCtaOld(unsigned long long *P, unsigned long long V) {
  return __hip_atomic_fetch_add(P, V, __ATOMIC_RELEASE,
                                __HIP_MEMORY_SCOPE_WORKGROUP);
}
__device__ __forceinline__ unsigned long long
exchAcquireCta(unsigned long long *P, unsigned long long V) {
  return __hip_atomic_exchange(P, V, __ATOMIC_ACQUIRE,
                               __HIP_MEMORY_SCOPE_WORKGROUP);
}
__device__ __forceinline__ unsigned long long
ldRelaxedCta(unsigned long long *P) {
  return __hip_atomic_load(P, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
}
__device__ __forceinline__ unsigned ldRelaxedCta(unsigned *P) {
  return __hip_atomic_load(P, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
}
__device__ __forceinline__ void maxReleaseCta(unsigned *P, unsigned V) {
  (void)__hip_atomic_fetch_max(P, V, __ATOMIC_RELEASE,
                               __HIP_MEMORY_SCOPE_WORKGROUP);
}
__device__ __forceinline__ void addRelaxedCta(unsigned *P, unsigned V) {
  (void)__hip_atomic_fetch_add(P, V, __ATOMIC_RELAXED,
                               __HIP_MEMORY_SCOPE_WORKGROUP);
}
#undef HPP_HIP_SCOPE
#endif
} // namespace scoped

} // namespace detail
} // namespace hpp
#endif

#endif // HPP_RUNTIME_GRID_SCOPED_H
