//===- hpp/cpu/group_executor.h - Runs the work-items of a work-group -----===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// GroupExecutor runs the work-items of one work-group on the current host
/// thread, each work-item as a fiber (ucontext: one FiberStackSize stack per
/// work-item, kept by the host thread and reused across groups and
/// launches). A work-item runs until it finishes or reaches a collective
/// mvector operation (shuffle, ballot, vote, __syncwarp, __activemask; see
/// hpp/cpu/warp.h), where it blocks; once every work-item of the group has
/// either finished or blocked, the executor completes the collectives of
/// every mvector whose lanes all wait at the same operation, and reports
/// the others as divergent (hpp::RuntimeError), so a collective never hangs.
/// Scheduling is deterministic: items run in linear local-id order.
///
/// Work-items are grouped into mvectors of mvectorWidth() consecutive linear
/// local ids: lane = id % width, mvector = id / width. A work-item whose
/// body has returned (or that does not run the body, being outside the
/// global range) has exited its mvector.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_GROUP_EXECUTOR_H
#define HPP_CPU_GROUP_EXECUTOR_H

#include "hpp/core/error.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <ucontext.h>

namespace hpp {
namespace cpu {

/// Stack of each work-item fiber.
constexpr std::size_t FiberStackSize = 128 * 1024;

/// Kinds of collective mvector operations.
enum class CollectiveKind {
  Shfl,
  ShflUp,
  ShflDown,
  ShflXor,
  Ballot,
  Any,
  All,
  ActiveMask,
  SyncWarp
};

/// One lane's arrival at a collective operation.
struct CollectiveOp {
  CollectiveKind Kind;
  const char *Name; ///< The intrinsic as spelled, e.g. "__shfl_xor_sync".
  const char *File;
  int Line;
  unsigned long long Mask; ///< 64-bit lane mask (32-bit masks zero-extend).
  std::uint64_t Value;     ///< Bits of the lane's value or predicate.
  int Arg;                 ///< srcLane, delta or laneMask.
  int Width;               ///< Shuffle sub-partition width.
};

/// Unwinds a fiber whose group is abandoned (another item threw).
struct FiberAbort {};

/// Fibers (contexts and stacks) for the work-items of one group; a host
/// thread keeps the pools it used and hands them to its next executors.
struct FiberPool {
  struct Item {
    ucontext_t Ctx;
    std::unique_ptr<char[]> Stack;
    enum State { NotStarted, Ready, Blocked, Done } St = NotStarted;
    CollectiveOp Op;
    std::uint64_t Result = 0;
  };
  std::vector<Item> Items;
  ucontext_t Scheduler;

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

/// Runs the work-items of one work-group at a time on the current thread.
class GroupExecutor {
public:
  /// \p MvectorWidth is the simulated mvector width (32 or 64).
  explicit GroupExecutor(unsigned MvectorWidth)
      : Width(MvectorWidth), Pool(FiberPool::acquire()) {}
  ~GroupExecutor() { FiberPool::release(std::move(Pool)); }
  GroupExecutor(const GroupExecutor &) = delete;
  GroupExecutor &operator=(const GroupExecutor &) = delete;

  /// Runs \p Item(LocalId) for every linear local id in [0, ItemCount) and
  /// returns when all have finished. An exception thrown by an item (or a
  /// divergent collective) propagates out of runGroup; the group's
  /// remaining items do not run, blocked ones are unwound.
  template <class ItemFn> void runGroup(std::size_t ItemCount, ItemFn &&Item) {
    using Fn = std::remove_reference_t<ItemFn>;
    ActiveScope Scope(*this, ItemCount);
    ItemContext = static_cast<void *>(std::addressof(Item));
    ItemCall = [](void *C, std::size_t Id) { (*static_cast<Fn *>(C))(Id); };
    schedule();
  }

  /// The simulated mvector width.
  unsigned mvectorWidth() const { return Width; }
  /// Number of work-items in the group being run.
  std::size_t groupSize() const { return Size; }
  /// Linear local id of the work-item being run.
  std::size_t currentItem() const { return Current; }
  /// Lane of the work-item being run within its mvector.
  unsigned currentLane() const {
    return static_cast<unsigned>(Current % Width);
  }
  /// Index of the current work-item's mvector within the group.
  std::size_t currentMvector() const { return Current / Width; }

  /// The executor running a work-item on this thread, or null outside
  /// runGroup (e.g. in host code).
  static GroupExecutor *current() { return activeSlot(); }

  /// Called by the current work-item: blocks it at \p Op until every
  /// not-exited lane of its mvector reaches the same operation, and
  /// returns this lane's result. Throws RuntimeError for a divergent
  /// collective.
  std::uint64_t collective(const CollectiveOp &Op) {
    FiberPool::Item &Me = Pool->Items[Current];
    Me.Op = Op;
    Me.St = FiberPool::Item::Blocked;
    swapcontext(&Me.Ctx, &Pool->Scheduler);
    if (Aborting)
      throw FiberAbort();
    return Me.Result;
  }

private:
  static GroupExecutor *&activeSlot() {
    static thread_local GroupExecutor *Active = nullptr;
    return Active;
  }

  /// Publishes the executor as current() while a group runs.
  class ActiveScope {
  public:
    ActiveScope(GroupExecutor &E, std::size_t ItemCount) : Saved(activeSlot()) {
      E.Size = ItemCount;
      E.Current = 0;
      activeSlot() = &E;
    }
    ~ActiveScope() { activeSlot() = Saved; }
    ActiveScope(const ActiveScope &) = delete;
    ActiveScope &operator=(const ActiveScope &) = delete;

  private:
    GroupExecutor *Saved;
  };

  static void fiberMain() {
    GroupExecutor &E = *current();
    std::size_t Id = E.Current;
    try {
      E.ItemCall(E.ItemContext, Id);
    } catch (const FiberAbort &) {
    } catch (...) {
      if (!E.Error)
        E.Error = std::current_exception();
    }
    E.Pool->Items[Id].St = FiberPool::Item::Done;
    // Returning resumes uc_link, the scheduler.
  }

  void switchTo(std::size_t Id) {
    FiberPool::Item &It = Pool->Items[Id];
    Current = Id;
    if (It.St == FiberPool::Item::NotStarted) {
      if (!It.Stack)
        It.Stack.reset(new char[FiberStackSize]);
      getcontext(&It.Ctx);
      It.Ctx.uc_stack.ss_sp = It.Stack.get();
      It.Ctx.uc_stack.ss_size = FiberStackSize;
      It.Ctx.uc_link = &Pool->Scheduler;
      makecontext(&It.Ctx, &GroupExecutor::fiberMain, 0);
    }
    It.St = FiberPool::Item::Ready;
    swapcontext(&Pool->Scheduler, &It.Ctx);
  }

  /// Resumes every blocked item with Aborting set, so it unwinds.
  void abortAll() {
    Aborting = true;
    for (std::size_t Id = 0; Id != Size; ++Id)
      if (Pool->Items[Id].St == FiberPool::Item::Blocked)
        switchTo(Id);
    Aborting = false;
  }

  void schedule() {
    auto &Items = Pool->Items;
    if (Items.size() < Size)
      Items.resize(Size);
    for (std::size_t Id = 0; Id != Size; ++Id)
      Items[Id].St = FiberPool::Item::NotStarted;
    Error = nullptr;
    Aborting = false;
    for (;;) {
      bool AnyBlocked = false;
      for (std::size_t Id = 0; Id != Size; ++Id) {
        auto St = Items[Id].St;
        if (St == FiberPool::Item::NotStarted || St == FiberPool::Item::Ready)
          switchTo(Id);
        if (Error)
          break;
        AnyBlocked |= Items[Id].St == FiberPool::Item::Blocked;
      }
      if (!Error && !AnyBlocked)
        return;
      if (!Error) {
        try {
          for (std::size_t M = 0; M * Width < Size; ++M)
            resolve(M);
        } catch (...) {
          Error = std::current_exception();
        }
      }
      if (Error) {
        std::exception_ptr E = Error;
        abortAll();
        Error = nullptr;
        std::rethrow_exception(E);
      }
    }
  }

  static std::string hex(unsigned long long V) {
    char Buf[32];
    std::snprintf(Buf, sizeof Buf, "0x%llx", V);
    return Buf;
  }
  static std::string lanes(unsigned long long Bits) {
    std::string S;
    for (unsigned L = 0; L < 64;) {
      if (!(Bits >> L & 1)) {
        ++L;
        continue;
      }
      unsigned E = L;
      while (E + 1 < 64 && (Bits >> (E + 1) & 1))
        ++E;
      if (!S.empty())
        S += ",";
      S += std::to_string(L);
      if (E != L)
        S += "-" + std::to_string(E);
      L = E + 1;
    }
    return S.empty() ? "none" : S;
  }

  [[noreturn]] void divergent(const CollectiveOp &Op, std::size_t M,
                              const std::string &Why) {
    throw RuntimeError(Op.Name, Op.File ? Op.File : "?", Op.Line,
                       "divergent mvector collective in mvector " +
                           std::to_string(M) + " (width " +
                           std::to_string(Width) + "): " + Why +
                           "; every active lane must take part (AMD rule)");
  }

  /// Completes the collective the lanes of mvector \p M wait at.
  void resolve(std::size_t M) {
    auto &Items = Pool->Items;
    std::size_t Begin = M * Width;
    std::size_t End = Begin + Width < Size ? Begin + Width : Size;
    unsigned long long Blocked = 0, Exited = 0;
    const CollectiveOp *First = nullptr;
    for (std::size_t Id = Begin; Id != End; ++Id) {
      unsigned Lane = static_cast<unsigned>(Id - Begin);
      if (Items[Id].St == FiberPool::Item::Done)
        Exited |= 1ull << Lane;
      else if (Items[Id].St == FiberPool::Item::Blocked) {
        Blocked |= 1ull << Lane;
        if (!First)
          First = &Items[Id].Op;
      }
    }
    if (!Blocked)
      return;
    for (std::size_t Id = Begin; Id != End; ++Id) {
      if (Items[Id].St != FiberPool::Item::Blocked)
        continue;
      const CollectiveOp &Op = Items[Id].Op;
      if (Op.Kind != First->Kind || Op.Line != First->Line ||
          std::strcmp(Op.File ? Op.File : "", First->File ? First->File : ""))
        divergent(*First, M,
                  "lane " + std::to_string(Id - Begin) + " waits at " +
                      Op.Name + " at " + (Op.File ? Op.File : "?") + ":" +
                      std::to_string(Op.Line) + " instead");
    }
    if (Exited)
      divergent(*First, M,
                "reached by lanes " + lanes(Blocked) + " only; lanes " +
                    lanes(Exited) + " exited");
    // Predicates of all participants.
    unsigned long long Pred = 0;
    for (std::size_t Id = Begin; Id != End; ++Id)
      if (Items[Id].Op.Value)
        Pred |= 1ull << (Id - Begin);
    for (std::size_t Id = Begin; Id != End; ++Id) {
      FiberPool::Item &It = Items[Id];
      const CollectiveOp &Op = It.Op;
      unsigned Lane = static_cast<unsigned>(Id - Begin);
      std::uint64_t R = 0;
      long Src = -1;
      unsigned W = static_cast<unsigned>(Op.Width);
      unsigned SegBase = Lane & ~(W - 1);
      switch (Op.Kind) {
      case CollectiveKind::Shfl:
        Src = SegBase + (static_cast<unsigned>(Op.Arg) & (W - 1));
        break;
      case CollectiveKind::ShflUp:
        Src = (Lane - SegBase) >= static_cast<unsigned>(Op.Arg)
                  ? static_cast<long>(Lane) - Op.Arg
                  : static_cast<long>(Lane);
        break;
      case CollectiveKind::ShflDown:
        Src = (Lane - SegBase) + static_cast<unsigned>(Op.Arg) < W
                  ? static_cast<long>(Lane) + Op.Arg
                  : static_cast<long>(Lane);
        break;
      case CollectiveKind::ShflXor: {
        unsigned S = Lane ^ static_cast<unsigned>(Op.Arg);
        Src = S >= SegBase + W || S >= Width ? Lane : S;
        break;
      }
      case CollectiveKind::Ballot:
        R = Pred & Op.Mask;
        break;
      case CollectiveKind::Any:
        R = (Pred & Op.Mask) != 0;
        break;
      case CollectiveKind::All:
        R = (Blocked & Op.Mask & ~Pred) == 0;
        break;
      case CollectiveKind::ActiveMask:
        R = Blocked;
        break;
      case CollectiveKind::SyncWarp:
        break;
      }
      if (Src >= 0) {
        // A lane beyond a partial mvector does not exist: undefined on a
        // GPU, 0 here.
        std::size_t SrcId = Begin + static_cast<std::size_t>(Src);
        R = SrcId < End ? Items[SrcId].Op.Value : 0;
      }
      It.Result = R;
    }
    for (std::size_t Id = Begin; Id != End; ++Id)
      Items[Id].St = FiberPool::Item::Ready;
  }

  unsigned Width;
  std::size_t Size = 0;
  std::size_t Current = 0;
  std::unique_ptr<FiberPool> Pool;
  void *ItemContext = nullptr;
  void (*ItemCall)(void *, std::size_t) = nullptr;
  std::exception_ptr Error;
  bool Aborting = false;
};

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_GROUP_EXECUTOR_H
