//===- hpp/cg_reduce.h - cg::reduce -----------------------------*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime: the CPU backend, and HIP versions
// without <hip/amd_detail/amd_hip_cooperative_groups_reduce.h> (hpp/
// cuda_api.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What CUDA's <cooperative_groups/reduce.h> gives port-mode code, where the
/// backend has no such header: the operators cg::plus, cg::less (the
/// smaller value), cg::greater (the larger), cg::bit_and, cg::bit_or,
/// cg::bit_xor, and cg::reduce(tile, value, op), the tile's reduction, which
/// every thread of the tile gets, as CUDA's. It is a butterfly over the
/// tile's own shfl_xor, from half the tile's size down to 1: log2(size)
/// steps, for any tile size the target allows (a 64-thread tile on wave64
/// and on a 64-wide CPU mvector), in an association order that depends on
/// the tile's size only, so a floating-point sum over a tile gives the
/// same bits at 32 and 64 lanes. Every thread of the tile must call it, as
/// CUDA requires; on the CPU backend it is a collective of the tile's
/// threads only (their exact-mask shuffles), whatever the other tiles of
/// the mvector do.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_CG_REDUCE_H
#define HPP_RUNTIME_CG_REDUCE_H

#include "hpp/core/config.h"

#include <type_traits>

namespace cooperative_groups {

template <class T> struct plus {
  HPP_HD T operator()(const T &A, const T &B) const { return A + B; }
};
template <class T> struct less {
  HPP_HD T operator()(const T &A, const T &B) const { return A < B ? A : B; }
};
template <class T> struct greater {
  HPP_HD T operator()(const T &A, const T &B) const { return A < B ? B : A; }
};
template <class T> struct bit_and {
  HPP_HD T operator()(const T &A, const T &B) const { return A & B; }
};
template <class T> struct bit_or {
  HPP_HD T operator()(const T &A, const T &B) const { return A | B; }
};
template <class T> struct bit_xor {
  HPP_HD T operator()(const T &A, const T &B) const { return A ^ B; }
};

#if defined(HPP_BACKEND_HIP) || defined(HPP_BACKEND_CUDA)
/// \p Value combined with \p Op over the threads of \p Tile (a
/// thread_block_tile), returned to each of them.
template <class TileT, class T, class OpT>
HPP_DEVICE std::decay_t<T> reduce(const TileT &Tile, T &&Value, OpT &&Op) {
  std::decay_t<T> Result = Value;
  for (unsigned Lanes = Tile.size() / 2; Lanes > 0; Lanes /= 2)
    Result = Op(Result, Tile.shfl_xor(Result, Lanes));
  return Result;
}
#else
/// The same on the CPU backend, whose tile shuffles are exact-mask
/// collectives of the tile's lanes (backend/cpu.h): a tile reduces on its
/// own while the other tiles of the mvector are elsewhere, and a thread of
/// the tile that does not call it is reported at the caller's file:line.
template <class TileT, class T, class OpT>
std::decay_t<T> reduce(const TileT &Tile, T &&Value, OpT &&Op,
                       const char *File = __builtin_FILE(),
                       int Line = __builtin_LINE()) {
  std::decay_t<T> Result = Value;
  for (unsigned Lanes = Tile.size() / 2; Lanes > 0; Lanes /= 2)
    Result = Op(Result, Tile.shfl_xor(Result, Lanes, File, Line));
  return Result;
}
#endif

} // namespace cooperative_groups

#endif // HPP_RUNTIME_CG_REDUCE_H
