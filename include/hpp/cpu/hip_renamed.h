//===- hpp/cpu/hip_renamed.h - A rename-only port's warp code, simulated --===//
//
// Part of hpp-rewrite. CPU reference runtime (an oracle's simulation).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// With -DHPP_CPU_HIP_RENAMED, the CUDA-spelled warp intrinsics of
/// hpp/cpu/warp.h mean what HIP makes of them on AMD, so that a rename-only
/// port (CUDA's runtime calls and launches renamed, the warp code left as
/// written: HIPIFY's output; hpp-rewrite --port --simulate-rename-only) runs
/// on the simulated mvector as it would on a wavefront of that width
/// (HPP_CPU_MVECTOR=64: wave64; 32: wave32). It exists for the port
/// oracle's "renamed" column (docs/port.md), never for programs:
///  - a `_sync` intrinsic ignores its mask, whatever its type (as HIP
///    before ROCm 6.2 does; ROCm 6.4.3 and later do not compile a 32-bit
///    mask at all): it is a collective of the lanes of the whole mvector
///    that are converged at the call (hpp/cpu/mask_collectives.h), as the
///    active lanes of a wavefront are;
///  - a shuffle's width defaults to the whole mvector (warpSize) and
///    splits it as HIP's ds_bpermute index arithmetic does; a source lane
///    that is not converged at the call reads every bit set (on AMD: what
///    its register holds, undefined);
///  - __ballot_sync, __activemask and the matches return 64 bits (`unsigned
///    long long`), which code written for CUDA cuts to `unsigned` where it
///    keeps them;
///  - __syncwarp waits for the converged lanes (HIP's wave barrier);
///  - the mask-less forms (__shfl, __ballot, __any, ...) are HIP's too.
/// warpSize is the mvector width (hpp/cpu/warp.h). Included by
/// hpp/cpu/warp.h in place of its CUDA-semantics intrinsics.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_HIP_RENAMED_H
#define HPP_CPU_HIP_RENAMED_H

#include "hpp/cpu/warp_ops.h"

namespace hpp {
namespace cpu {
namespace warp {
/// The lanes of the caller's mvector converged at this call: those a
/// wavefront would run it with.
inline Mask64 wavefrontLanes(const char *Name, const char *File, int Line) {
  return activeMask(Name, File, Line, /*Half=*/false, /*Exact=*/true);
}
/// A shuffle of the converged lanes, as HIP runs it.
template <class T>
T hipShuffle(CollectiveKind Kind, const char *Name, T Var, int LaneArg,
             int Width, const char *File, int Line) {
  return shuffle(Kind, Name, wavefrontLanes(Name, File, Line), Var, LaneArg,
                 Width, File, Line, /*Half=*/false, /*Exact=*/true);
}
} // namespace warp
} // namespace cpu
} // namespace hpp

#define HPP_HIP_LOC                                                            \
  const char *File = __builtin_FILE(), int Line = __builtin_LINE()

// One row per shuffle: CUDA's name, HIP's mask-less name, the kind, what
// the lane argument means. Width 0 is the whole mvector.
#define HPP_HIP_SHUFFLES(X)                                                    \
  X(__shfl_sync, __shfl, Shfl, int)                    /* source lane */       \
  X(__shfl_up_sync, __shfl_up, ShflUp, unsigned)       /* delta */             \
  X(__shfl_down_sync, __shfl_down, ShflDown, unsigned) /* delta */             \
  X(__shfl_xor_sync, __shfl_xor, ShflXor, int)         /* xor lane mask */

#define HPP_HIP_SHUFFLE(SyncName, Name, Kind, LaneArgType)                     \
  template <class M, class T>                                                  \
  inline T SyncName(M, T Var, LaneArgType LaneArg, int Width = 0,              \
                    HPP_HIP_LOC) {                                             \
    return ::hpp::cpu::warp::hipShuffle(                                       \
        ::hpp::cpu::CollectiveKind::Kind, #SyncName, Var,                      \
        static_cast<int>(LaneArg), Width, File, Line);                         \
  }                                                                            \
  template <class T>                                                           \
  inline T Name(T Var, LaneArgType LaneArg, int Width = 0, HPP_HIP_LOC) {      \
    return ::hpp::cpu::warp::hipShuffle(::hpp::cpu::CollectiveKind::Kind,      \
                                        #Name, Var, static_cast<int>(LaneArg), \
                                        Width, File, Line);                    \
  }
HPP_HIP_SHUFFLES(HPP_HIP_SHUFFLE)
#undef HPP_HIP_SHUFFLE
#undef HPP_HIP_SHUFFLES

// The votes: CUDA's name, HIP's mask-less name, the operation, its result.
#define HPP_HIP_VOTES(X)                                                       \
  X(__ballot_sync, __ballot, ballot, unsigned long long)                       \
  X(__any_sync, __any, any, int)                                               \
  X(__all_sync, __all, all, int)

#define HPP_HIP_VOTE(SyncName, Name, Op, Result)                               \
  template <class M> inline Result SyncName(M, int Predicate, HPP_HIP_LOC) {   \
    using namespace ::hpp::cpu::warp;                                          \
    return static_cast<Result>(                                                \
        Op(#SyncName, wavefrontLanes(#SyncName, File, Line), Predicate, File,  \
           Line, /*Half=*/false, /*Exact=*/true));                             \
  }                                                                            \
  inline Result Name(int Predicate, HPP_HIP_LOC) {                             \
    using namespace ::hpp::cpu::warp;                                          \
    return static_cast<Result>(Op(#Name, wavefrontLanes(#Name, File, Line),    \
                                  Predicate, File, Line, /*Half=*/false,       \
                                  /*Exact=*/true));                            \
  }
HPP_HIP_VOTES(HPP_HIP_VOTE)
#undef HPP_HIP_VOTE
#undef HPP_HIP_VOTES

/// HIP's: the converged lanes of the whole wavefront, 64 bits.
inline unsigned long long __activemask(HPP_HIP_LOC) {
  return ::hpp::cpu::warp::wavefrontLanes("__activemask", File, Line);
}
/// HIP's wave barrier: the converged lanes wait for each other.
template <class M = unsigned long long>
inline void __syncwarp(M = ~0ull, HPP_HIP_LOC) {
  ::hpp::cpu::warp::wavefrontLanes("__syncwarp", File, Line);
}
/// HIP's matches (ROCm 6.2): over the converged lanes, 64 bits.
template <class M, class T>
inline unsigned long long __match_any_sync(M, T Value, HPP_HIP_LOC) {
  using namespace ::hpp::cpu::warp;
  return match(::hpp::cpu::CollectiveKind::MatchAny, "__match_any_sync",
               wavefrontLanes("__match_any_sync", File, Line), Value, File,
               Line, /*Half=*/false);
}
template <class M, class T>
inline unsigned long long __match_all_sync(M, T Value, int *Pred, HPP_HIP_LOC) {
  using namespace ::hpp::cpu::warp;
  const Mask64 Bits =
      match(::hpp::cpu::CollectiveKind::MatchAll, "__match_all_sync",
            wavefrontLanes("__match_all_sync", File, Line), Value, File, Line,
            /*Half=*/false);
  *Pred = Bits != 0;
  return Bits;
}

#undef HPP_HIP_LOC

#endif // HPP_CPU_HIP_RENAMED_H
