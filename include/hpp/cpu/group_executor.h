//===- hpp/cpu/group_executor.h - Runs the work-items of a work-group -----===//
//
// Part of hpp-rewrite. CPU reference runtime, and the fiber core of the
// device runtime's CPU backend (runtime/hpp/backend/cpu_executor.h).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// GroupExecutor runs the work-items of one work-group on the current host
/// thread, each work-item on a fiber (hpp/cpu/fiber.h: one FiberStackSize
/// stack per local id, kept by the host thread and reused across groups and
/// launches). A work-item runs until it finishes or reaches a collective
/// operation, where it blocks:
///  - a collective mvector operation (shuffle, ballot, vote, __syncwarp,
///    __activemask; see hpp/cpu/warp_ops.h) waits for the lanes of its
///    mvector;
///  - the work-group barrier (CollectiveKind::GroupBarrier: __syncthreads
///    and cooperative-groups thread_block::sync in the device runtime)
///    waits for every work-item of the group.
/// Once every work-item of the group has either finished or blocked, the
/// executor completes the collectives of every mvector whose lanes all wait
/// at the same mvector operation, and reports the others as divergent
/// (hpp::RuntimeError). When no mvector can complete one, every not-exited
/// work-item waits at a group barrier: it is released if they all wait at
/// the same one (exited work-items count as arrived, as on current GPUs),
/// and hpp::RuntimeError names the barrier and its file:line otherwise; a
/// mvector with lanes at the barrier and lanes at a mvector operation is
/// divergent. So a collective never hangs. Scheduling is deterministic:
/// items run in linear local-id order.
///
/// Work-items are grouped into mvectors of mvectorWidth() consecutive linear
/// local ids: lane = id % width, mvector = id / width. A work-item whose
/// body has returned (or that does not run the body, being outside the
/// global range) has exited its mvector.
///
/// A work-item can also park (park()): wait, outside the mvector
/// collectives, until a condition of some object holds (a Barrier phase,
/// hpp/cpu/barrier.h). Parked work-items do not block their mvector's other
/// lanes (independent scheduling), but a mvector collective or group
/// barrier that a parked lane should join is divergent; when every
/// not-exited work-item is parked and none is released, the group is
/// deadlocked: hpp::RuntimeError names the first parked one's operation,
/// its file:line and the object's state, instead of a hang.
///
/// runGroup can call a hook each time a work-item is resumed (the device
/// runtime sets threadIdx there).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_GROUP_EXECUTOR_H
#define HPP_CPU_GROUP_EXECUTOR_H

#include "hpp/core/error.h"
#include "hpp/cpu/fiber.h"
#include "hpp/cpu/launch_context.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
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
  std::deque<Item> Items; ///< A deque: fibers never move.
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
    runGroup(ItemCount, std::forward<ItemFn>(Item), nullptr);
  }

  /// The same, calling \p OnResume(LocalId) whenever a work-item starts or
  /// resumes (after a collective), on the scheduler's side of the switch;
  /// \p OnResume may be nullptr.
  template <class ItemFn, class ResumeFn>
  void runGroup(std::size_t ItemCount, ItemFn &&Item, ResumeFn &&OnResume) {
    using Fn = std::remove_reference_t<ItemFn>;
    ActiveScope Scope(*this, ItemCount);
    ItemContext = static_cast<void *>(std::addressof(Item));
    ItemCall = [](void *C, std::size_t Id) { (*static_cast<Fn *>(C))(Id); };
    if constexpr (std::is_same<std::decay_t<ResumeFn>,
                               std::nullptr_t>::value) {
      ResumeContext = nullptr;
      ResumeCall = nullptr;
    } else {
      using RFn = std::remove_reference_t<ResumeFn>;
      ResumeContext = static_cast<void *>(std::addressof(OnResume));
      ResumeCall = [](void *C, std::size_t Id) {
        (*static_cast<RFn *>(C))(Id);
      };
    }
    prepare();
    schedule(/*MayStall=*/false);
  }

  /// Starts a group that may stall: work-items parked on objects other
  /// work-groups release (ParkSite::Shared, e.g. a launch-wide barrier)
  /// leave it suspended until resume() finds them released. \p Item must
  /// outlive the group. Call resume() until it returns true.
  template <class ItemFn> void start(std::size_t ItemCount, ItemFn &Item) {
    using Fn = std::remove_reference_t<ItemFn>;
    Size = ItemCount;
    ItemContext = static_cast<void *>(std::addressof(Item));
    ItemCall = [](void *C, std::size_t Id) { (*static_cast<Fn *>(C))(Id); };
    ResumeContext = nullptr;
    ResumeCall = nullptr;
    prepare();
  }

  /// The same, calling \p OnResume(LocalId) whenever a work-item starts or
  /// resumes, as runGroup does; \p OnResume must outlive the group too.
  template <class ItemFn, class ResumeFn>
  void start(std::size_t ItemCount, ItemFn &Item, ResumeFn &OnResume) {
    start(ItemCount, Item);
    using RFn = std::remove_reference_t<ResumeFn>;
    ResumeContext = static_cast<void *>(std::addressof(OnResume));
    ResumeCall = [](void *C, std::size_t Id) { (*static_cast<RFn *>(C))(Id); };
  }

  /// Runs the started group until every work-item has finished (true) or
  /// all that remain wait on shared objects not yet released (false).
  /// Errors propagate as from runGroup; the group is then over.
  bool resume() {
    ActiveScope Scope(*this, Size, /*Reset=*/false);
    return schedule(/*MayStall=*/true);
  }

  /// Unwinds a suspended group's work-items (its launch failed elsewhere).
  void abandon() {
    ActiveScope Scope(*this, Size, /*Reset=*/false);
    abortAll();
    States.clear();
  }

  /// The first parked work-item's wait (null if none), for reports about a
  /// stalled group.
  const ParkSite *firstParked() const {
    for (std::size_t Id = 0; Id != Size; ++Id)
      if (Pool->Items[Id].St == FiberPool::Item::Parked)
        return &Pool->Items[Id].Park;
    return nullptr;
  }

  /// The launch the group belongs to (null outside parallelFor launches,
  /// e.g. in the device runtime's CPU backend) and its linear index there.
  void setLaunch(LaunchContext *L, std::size_t Group) {
    Launch = L;
    GroupIndex = Group;
  }
  LaunchContext *launch() const { return Launch; }
  std::size_t groupIndex() const { return GroupIndex; }

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
  /// not-exited lane of its mvector (for GroupBarrier: every not-exited
  /// work-item of its group) reaches the same operation, and returns this
  /// lane's result. Throws RuntimeError for a divergent collective.
  std::uint64_t collective(const CollectiveOp &Op) {
    if (Aborting) {
      // Reached while the group is being unwound (from a destructor, say):
      // nobody else will arrive.
      if (std::uncaught_exceptions() > 0)
        return 0;
      throw FiberAbort();
    }
    runPendingCheck();
    FiberPool::Item &Me = Pool->Items[Current];
    Me.Op = Op;
    Me.St = FiberPool::Item::Blocked;
    Fiber::swap(Me.F, Pool->Scheduler);
    if (Aborting)
      throw FiberAbort();
    return Me.Result;
  }

  /// Called by the current work-item: suspends it until
  /// \p Site.Released(Site.Object, Site.Token) holds (checked whenever no
  /// other work-item can run). Throws RuntimeError when the group can never
  /// release it (deadlock) or a collective it should join goes on without
  /// it (divergence).
  void park(const ParkSite &Site) {
    if (Aborting) {
      if (std::uncaught_exceptions() > 0)
        return;
      throw FiberAbort();
    }
    runPendingCheck();
    FiberPool::Item &Me = Pool->Items[Current];
    Me.Park = Site;
    Me.St = FiberPool::Item::Parked;
    Fiber::swap(Me.F, Pool->Scheduler);
    if (Aborting)
      throw FiberAbort();
  }

  /// Sets the check of the current work-item's last access to work-group
  /// memory (HPP_CPU_CHECK=uninit, hpp/cpu/group_memory.h): \p Run(\p
  /// Context) runs before the work-item next blocks or parks, when it ends,
  /// or at its next checked access (runPendingCheck), and throws if the
  /// access read memory that nobody wrote. Other work-items run only while
  /// it blocks, so one check at a time is pending.
  void setPendingCheck(void (*Run)(void *), void *Context) {
    PendingRun = Run;
    PendingContext = Context;
  }
  /// Runs and clears the pending check, if any.
  void runPendingCheck() {
    if (void (*Run)(void *) = PendingRun) {
      PendingRun = nullptr;
      Run(PendingContext);
    }
  }

  /// The running group's state for \p Key, created by \p Make() on first
  /// use in this group.
  template <class T, class MakeFn> T &groupState(const void *Key, MakeFn Make) {
    for (auto &[K, State] : States)
      if (K == Key)
        return static_cast<T &>(*State);
    States.emplace_back(Key, Make());
    return static_cast<T &>(*States.back().second);
  }

private:
  static GroupExecutor *&activeSlot() {
    static thread_local GroupExecutor *Active = nullptr;
    return Active;
  }

  /// Publishes the executor as current() while a group runs.
  class ActiveScope {
  public:
    ActiveScope(GroupExecutor &E, std::size_t ItemCount, bool Reset = true)
        : Saved(activeSlot()) {
      if (Reset) {
        E.Size = ItemCount;
        E.Current = 0;
      }
      activeSlot() = &E;
    }
    ~ActiveScope() { activeSlot() = Saved; }
    ActiveScope(const ActiveScope &) = delete;
    ActiveScope &operator=(const ActiveScope &) = delete;

  private:
    GroupExecutor *Saved;
  };

  /// Body of every fiber: runs the work-item the scheduler switched to,
  /// then hands control back, forever. The executor is looked up at each
  /// turn because pools move between the executors of a host thread.
  static void fiberLoop() {
    for (;;) {
      GroupExecutor &E = *current();
      const std::size_t Id = E.Current;
      try {
        E.ItemCall(E.ItemContext, Id);
        E.runPendingCheck();
      } catch (const FiberAbort &) {
      } catch (...) {
        if (!E.Error)
          E.Error = std::current_exception();
      }
      E.PendingRun = nullptr;
      FiberPool::Item &It = E.Pool->Items[Id];
      It.St = FiberPool::Item::Done;
      Fiber::swap(It.F, E.Pool->Scheduler);
    }
  }

  void switchTo(std::size_t Id) {
    FiberPool::Item &It = Pool->Items[Id];
    Current = Id;
    if (!It.F.created())
      It.F.create(&GroupExecutor::fiberLoop, FiberStackSize);
    It.St = FiberPool::Item::Ready;
    if (ResumeCall)
      ResumeCall(ResumeContext, Id);
    Fiber::swap(Pool->Scheduler, It.F);
  }

  /// Resumes every started, unfinished item with Aborting set, so it
  /// unwinds back to the top of its fiber's loop.
  void abortAll() {
    Aborting = true;
    for (std::size_t Id = 0; Id != Size; ++Id) {
      auto St = Pool->Items[Id].St;
      if (St == FiberPool::Item::Blocked || St == FiberPool::Item::Ready ||
          St == FiberPool::Item::Parked)
        switchTo(Id);
    }
    Aborting = false;
  }

  /// Readies the pool for a group of Size work-items.
  void prepare() {
    auto &Items = Pool->Items;
    while (Items.size() < Size)
      Items.emplace_back();
    for (std::size_t Id = 0; Id != Size; ++Id)
      Items[Id].St = FiberPool::Item::NotStarted;
    Error = nullptr;
    Aborting = false;
    PendingRun = nullptr;
    States.clear();
  }

  /// Whether every parked work-item waits on a shared object.
  bool onlySharedParks() const {
    for (std::size_t Id = 0; Id != Size; ++Id) {
      const FiberPool::Item &It = Pool->Items[Id];
      if (It.St == FiberPool::Item::Parked && !It.Park.Shared)
        return false;
    }
    return true;
  }

  /// Runs the group until it finishes (true) or, when \p MayStall, until
  /// every remaining work-item waits on a shared object (false).
  bool schedule(bool MayStall) {
    auto &Items = Pool->Items;
    for (;;) {
      bool AnyBlocked = false, AnyParked = false;
      for (std::size_t Id = 0; Id != Size; ++Id) {
        auto St = Items[Id].St;
        if (St == FiberPool::Item::NotStarted || St == FiberPool::Item::Ready)
          switchTo(Id);
        if (Error)
          break;
        AnyBlocked |= Items[Id].St == FiberPool::Item::Blocked;
        AnyParked |= Items[Id].St == FiberPool::Item::Parked;
      }
      if (!Error && !AnyBlocked && !AnyParked) {
        States.clear();
        return true;
      }
      if (!Error) {
        try {
          if (!wakeParked()) {
            if (AnyBlocked)
              resolveBlocked();
            else if (MayStall && onlySharedParks())
              return false;
            else
              deadlock();
          }
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

  /// Makes the parked items whose wait is over ready; false if none is.
  bool wakeParked() {
    bool Woken = false;
    for (std::size_t Id = 0; Id != Size; ++Id) {
      FiberPool::Item &It = Pool->Items[Id];
      if (It.St == FiberPool::Item::Parked &&
          It.Park.Released(It.Park.Object, It.Park.Token)) {
        It.St = FiberPool::Item::Ready;
        Woken = true;
      }
    }
    return Woken;
  }

  /// Every not-exited item is parked and none can be released.
  [[noreturn]] void deadlock() {
    auto &Items = Pool->Items;
    std::size_t First = 0;
    while (Items[First].St != FiberPool::Item::Parked)
      ++First;
    const ParkSite &P = Items[First].Park;
    auto Same = [&](std::size_t I) {
      const ParkSite &Q = Items[I].Park;
      return Items[I].St == FiberPool::Item::Parked && Q.Object == P.Object &&
             Q.Line == P.Line && std::strcmp(Q.File, P.File) == 0;
    };
    std::string Others;
    for (std::size_t I = 0; I != Size; ++I)
      if (Items[I].St == FiberPool::Item::Parked && !Same(I)) {
        const ParkSite &Q = Items[I].Park;
        Others = "; work-item " + std::to_string(I) + " waits at " + Q.Name +
                 " at " + Q.File + ":" + std::to_string(Q.Line);
        break;
      }
    throw RuntimeError(
        P.Name, P.File, P.Line,
        "deadlock: work-items " + ranges(Size, Same) + " wait (" +
            P.Describe(P.Object) + ")" + Others +
            ", and no work-item of the work-group can arrive (exited: " +
            ranges(Size,
                   [&](std::size_t I) {
                     return Items[I].St == FiberPool::Item::Done;
                   }) +
            ", work-group of " + std::to_string(Size) + ")");
  }

  /// Called when no work-item can run: completes the mvector collectives,
  /// or, when there are none, the group barrier.
  void resolveBlocked() {
    bool Progress = false;
    for (std::size_t M = 0; M * Width < Size; ++M)
      Progress |= resolve(M);
    if (!Progress)
      releaseBarrier();
  }

  /// "a-b,c" for the ids in [0, N) where \p In is true, "none" if none.
  template <class Pred> static std::string ranges(std::size_t N, Pred In) {
    std::string S;
    for (std::size_t L = 0; L < N;) {
      if (!In(L)) {
        ++L;
        continue;
      }
      std::size_t E = L;
      while (E + 1 < N && In(E + 1))
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
  static std::string lanes(unsigned long long Bits) {
    return ranges(64, [Bits](std::size_t L) { return (Bits >> L & 1) != 0; });
  }

  static const char *fileOf(const CollectiveOp &Op) {
    return Op.File ? Op.File : "?";
  }
  /// The same operation at the same source location.
  static bool sameSite(const CollectiveOp &A, const CollectiveOp &B) {
    return A.Kind == B.Kind && A.Line == B.Line &&
           std::strcmp(fileOf(A), fileOf(B)) == 0;
  }

  [[noreturn]] void divergent(const CollectiveOp &Op, std::size_t M,
                              const std::string &Why) {
    throw RuntimeError(Op.Name, fileOf(Op), Op.Line,
                       "divergent mvector collective in mvector " +
                           std::to_string(M) + " (width " +
                           std::to_string(Width) + "): " + Why +
                           "; every active lane must take part (AMD rule)");
  }

  /// Every not-exited work-item waits at a group barrier: releases them if
  /// it is the same one, throws RuntimeError naming the first item's
  /// otherwise (the group could never go on).
  void releaseBarrier() {
    auto &Items = Pool->Items;
    auto Waits = [&](std::size_t Id) {
      return Items[Id].St == FiberPool::Item::Blocked;
    };
    std::size_t First = 0;
    while (First != Size && !Waits(First))
      ++First;
    if (First == Size)
      return;
    const CollectiveOp &Op = Items[First].Op;
    for (std::size_t Id = 0; Id != Size; ++Id)
      if (Items[Id].St == FiberPool::Item::Parked) {
        const ParkSite &P = Items[Id].Park;
        throw RuntimeError(
            Op.Name, fileOf(Op), Op.Line,
            "work-group barrier reached while work-item " +
                std::to_string(Id) + " waits at " + P.Name + " at " + P.File +
                ":" + std::to_string(P.Line) +
                "; every work-item that has not exited must reach the same "
                "barrier");
      }
    for (std::size_t Id = First; Id != Size; ++Id) {
      if (!Waits(Id) || sameSite(Items[Id].Op, Op))
        continue;
      const CollectiveOp &Other = Items[Id].Op;
      throw RuntimeError(
          Op.Name, fileOf(Op), Op.Line,
          "work-group barrier reached by work-items " +
              ranges(Size,
                     [&](std::size_t I) {
                       return Waits(I) && sameSite(Items[I].Op, Op);
                     }) +
              " only; work-item " + std::to_string(Id) + " waits at " +
              Other.Name + " at " + fileOf(Other) + ":" +
              std::to_string(Other.Line) + " (work-group of " +
              std::to_string(Size) +
              ", exited work-items: " +
              ranges(Size,
                     [&](std::size_t I) {
                       return Items[I].St == FiberPool::Item::Done;
                     }) +
              "); every work-item that has not exited must reach the same "
              "barrier");
    }
    for (std::size_t Id = First; Id != Size; ++Id)
      if (Waits(Id)) {
        Items[Id].Result = 0;
        Items[Id].St = FiberPool::Item::Ready;
      }
  }

  /// Completes the mvector collective the lanes of mvector \p M wait at;
  /// false when there is none (every lane exited or waits at the group
  /// barrier). Throws RuntimeError when the lanes wait at different
  /// operations or some exited.
  bool resolve(std::size_t M) {
    std::size_t Begin = M * Width;
    std::size_t End = Begin + Width < Size ? Begin + Width : Size;
    // Operations with 32-bit masks: each 32-lane half of a wider mvector is
    // a warp of its own, as on CUDA (and as hpp::warp32 runs on wave64).
    if (Width > 32)
      for (std::size_t H = Begin; H < End; H += 32) {
        std::size_t HEnd = H + 32 < End ? H + 32 : End;
        const CollectiveOp *Op = firstBlocked(H, HEnd);
        if (Op && Op->Half && resolveRange(M, Begin, End, H, HEnd))
          return true;
      }
    return resolveRange(M, Begin, End, Begin, End);
  }

  /// The operation the first blocked work-item of [Begin, End) waits at.
  const CollectiveOp *firstBlocked(std::size_t Begin, std::size_t End) const {
    for (std::size_t Id = Begin; Id != End; ++Id)
      if (Pool->Items[Id].St == FiberPool::Item::Blocked)
        return &Pool->Items[Id].Op;
    return nullptr;
  }

  /// resolve() for the lanes [RBegin, REnd) of mvector \p M, [Begin, End):
  /// the whole mvector, or one 32-lane half. Lanes count from \p Begin.
  bool resolveRange(std::size_t M, std::size_t Begin, std::size_t End,
                    std::size_t RBegin, std::size_t REnd) {
    auto &Items = Pool->Items;
    unsigned long long Blocked = 0, Exited = 0;
    const CollectiveOp *First = nullptr;
    for (std::size_t Id = RBegin; Id != REnd; ++Id) {
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
      return false;
    bool AllAtBarrier = true;
    for (std::size_t Id = RBegin; Id != REnd; ++Id)
      if (Items[Id].St == FiberPool::Item::Blocked)
        AllAtBarrier &= Items[Id].Op.Kind == CollectiveKind::GroupBarrier;
    // The group barrier waits for the whole group: releaseBarrier().
    if (AllAtBarrier)
      return false;
    for (std::size_t Id = RBegin; Id != REnd; ++Id)
      if (Items[Id].St == FiberPool::Item::Parked) {
        const ParkSite &P = Items[Id].Park;
        divergent(*First, M,
                  "lane " + std::to_string(Id - Begin) + " waits at " +
                      P.Name + " at " + P.File + ":" + std::to_string(P.Line) +
                      " instead");
      }
    for (std::size_t Id = RBegin; Id != REnd; ++Id) {
      if (Items[Id].St != FiberPool::Item::Blocked)
        continue;
      const CollectiveOp &Op = Items[Id].Op;
      if (!sameSite(Op, *First))
        divergent(*First, M,
                  "lane " + std::to_string(Id - Begin) + " waits at " +
                      Op.Name + " at " + fileOf(Op) + ":" +
                      std::to_string(Op.Line) + " instead");
    }
    // __activemask reports the lanes that have not exited; every other
    // operation needs them all.
    if (Exited && First->Kind != CollectiveKind::ActiveMask)
      divergent(*First, M,
                "reached by lanes " + lanes(Blocked) + " only; lanes " +
                    lanes(Exited) + " exited");
    // Predicates of all participants.
    unsigned long long Pred = 0;
    for (std::size_t Id = RBegin; Id != REnd; ++Id)
      if (Items[Id].Op.Value)
        Pred |= 1ull << (Id - Begin);
    for (std::size_t Id = RBegin; Id != REnd; ++Id) {
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
        // 64-bit: a delta near 2^32 must not wrap into the segment.
        Src = std::uint64_t(Lane - SegBase) + static_cast<unsigned>(Op.Arg) < W
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
      case CollectiveKind::GroupBarrier: // Not mixed with the others here.
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
    // Only the lanes that waited: an exited lane (__activemask) stays done.
    for (std::size_t Id = RBegin; Id != REnd; ++Id)
      if (Items[Id].St == FiberPool::Item::Blocked)
        Items[Id].St = FiberPool::Item::Ready;
    return true;
  }

  unsigned Width;
  std::size_t Size = 0;
  std::size_t Current = 0;
  std::unique_ptr<FiberPool> Pool;
  void *ItemContext = nullptr;
  void (*ItemCall)(void *, std::size_t) = nullptr;
  void *ResumeContext = nullptr;
  void (*ResumeCall)(void *, std::size_t) = nullptr;
  std::exception_ptr Error;
  bool Aborting = false;
  void (*PendingRun)(void *) = nullptr; ///< setPendingCheck's.
  void *PendingContext = nullptr;
  LaunchContext *Launch = nullptr;
  std::size_t GroupIndex = 0;
  /// groupState()'s objects for the running group (few: a linear search).
  std::vector<std::pair<const void *, std::unique_ptr<GroupState>>> States;
};

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_GROUP_EXECUTOR_H
