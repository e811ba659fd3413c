//===- hpp/cpu/group_types.h - The data of a work-group's executor --------===//
//
// Part of hpp-rewrite. CPU reference runtime, and the fiber core of the
// device runtime's CPU backend (runtime/hpp/backend/cpu_executor.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The data GroupExecutor (hpp/cpu/group_executor.h) works on: the kinds of
/// collective operations and one work-item's arrival at one (CollectiveOp),
/// the per-group state of shared objects (GroupState), and the pool of
/// work-item fibers a host thread keeps (FiberPool).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_GROUP_TYPES_H
#define HPP_CPU_GROUP_TYPES_H

#include "hpp/cpu/fiber.h"
#include "hpp/cpu/launch_context.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

namespace hpp {
namespace cpu {

/// Stack of each work-item fiber.
constexpr std::size_t FiberStackSize = 128 * 1024;

/// Kinds of collective operations.
enum class CollectiveKind {
  Shfl,
  ShflUp,
  ShflDown,
  ShflXor,
  Ballot,
  Any,
  All,
  ActiveMask,
  SyncWarp,
  /// __match_any_sync / __match_all_sync (the device runtime's CPU backend:
  /// exact-mask collectives only).
  MatchAny,
  MatchAll,
  /// The work-group barrier: waits for the whole group, not the mvector.
  GroupBarrier
};

/// One work-item's arrival at a collective operation.
struct CollectiveOp {
  CollectiveKind Kind;
  const char *Name; ///< The operation as spelled, e.g. "__shfl_xor_sync".
  const char *File;
  int Line;
  unsigned long long Mask; ///< 64-bit lane mask (32-bit masks zero-extend).
  std::uint64_t Value;     ///< Bits of the lane's value or predicate.
  int Arg;                 ///< srcLane, delta or laneMask.
  int Width;               ///< Shuffle sub-partition width.
  /// A 32-bit mask's operation: its warp is the caller's 32-lane half of
  /// the mvector, which completes it without the other half.
  bool Half;
  /// Who takes part. False (the dialect's rule, spec 3.2): every lane of the
  /// mvector (or half) that has not exited, at the same operation. True
  /// (CUDA's _sync rule, the device runtime's CPU backend): exactly the
  /// lanes of Mask, so that part of a warp may call it from divergent code
  /// and disjoint masks may be in flight at once; an ActiveMask collective
  /// then gathers the lanes waiting at the same call
  /// (hpp/cpu/mask_collectives.h).
  bool Exact = false;
};

/// State a work-group keeps for an object shared by the launch (e.g. a
/// Barrier whose participants are one work-group): one per group, created
/// on first use, destroyed when the group ends.
struct GroupState {
  virtual ~GroupState() = default;
};

/// Unwinds a fiber whose group is abandoned (another item threw).
struct FiberAbort {};

/// Fibers for the work-items of one group, by linear local id; a host
/// thread keeps the pools it used and hands them to its next executors.
/// Each fiber loops forever, one work-item per turn (GroupExecutor::
/// fiberLoop); between groups every fiber waits at the end of its loop.
struct FiberPool {
  struct Item {
    Fiber F;
    /// NotStarted: the fiber waits for its next work-item. Ready: a
    /// started work-item that can run (or is running). Blocked: waiting at
    /// Op. Parked: waiting for Park. Done: exited.
    enum State { NotStarted, Ready, Blocked, Parked, Done } St = NotStarted;
    CollectiveOp Op;
    ParkSite Park;
    std::uint64_t Result = 0;
  };
  /// The items by linear local id. Each keeps its address for the pool's
  /// life (a fiber runs on its item), and indexing is one pointer load:
  /// the scheduler's loops index it on every switch, and the tests build
  /// programs at -O0, where std::deque's indexing (a chain of calls) took
  /// a quarter of a run.
  class ItemList {
  public:
    Item &operator[](std::size_t I) { return *Table[I]; }
    const Item &operator[](std::size_t I) const { return *Table[I]; }
    std::size_t size() const { return Owned.size(); }
    void emplace_back() {
      Owned.push_back(std::unique_ptr<Item>(new Item()));
      Pointers.push_back(Owned.back().get());
      Table = Pointers.data();
    }

  private:
    std::vector<std::unique_ptr<Item>> Owned;
    std::vector<Item *> Pointers;
    Item **Table = nullptr;
  };
  ItemList Items;
  Fiber Scheduler;

  static std::vector<std::unique_ptr<FiberPool>> &freePools() {
    static thread_local std::vector<std::unique_ptr<FiberPool>> Free;
    return Free;
  }
  static std::unique_ptr<FiberPool> acquire() {
    auto &Free = freePools();
    if (Free.empty())
      return std::unique_ptr<FiberPool>(new FiberPool);
    std::unique_ptr<FiberPool> P = std::move(Free.back());
    Free.pop_back();
    return P;
  }
  static void release(std::unique_ptr<FiberPool> P) {
    freePools().push_back(std::move(P));
  }
};

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_GROUP_TYPES_H
