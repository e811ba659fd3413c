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
/// The data types (CollectiveOp, FiberPool, ...) are in
/// hpp/cpu/group_types.h; the members that complete the collectives and
/// report divergence and deadlocks are in hpp/cpu/group_collectives.h, and
/// those of the exact-mask collectives of the device runtime's CPU backend
/// (CUDA's rule: exactly the lanes of the mask take part) in
/// hpp/cpu/mask_collectives.h; this header includes both at its end.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_GROUP_EXECUTOR_H
#define HPP_CPU_GROUP_EXECUTOR_H

#include "hpp/core/index.h"
#include "hpp/cpu/fiber.h"
#include "hpp/cpu/group_types.h"
#include "hpp/cpu/launch_context.h"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace hpp {
namespace cpu {

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
    if constexpr (std::is_same<std::decay_t<ResumeFn>, std::nullptr_t>::value) {
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

  /// What the Index of every work-item of the group shares (group id and
  /// sizes; the ids follow from currentItem()), for the free functions
  /// hpp::get_local_id & co. (hpp/cpu/work_item.h) and for pastRange; set
  /// by parallelFor, and by the device runtime's CPU backend when it knows
  /// the range (for pastRange only). Must outlive the group.
  void setIndexBase(const detail::IndexFields *Base) { IndexBase = Base; }
  const detail::IndexFields *indexBase() const { return IndexBase; }

  /// Whether work-item \p Id of the running group lies past the end of the
  /// launch's global range, so that it never runs the body (the trailing
  /// work-items of a partial last group). Known only with an index base;
  /// false otherwise.
  bool pastRange(std::size_t Id) const {
    if (!IndexBase)
      return false;
    const std::size_t *LS = IndexBase->LocalSize;
    const std::size_t Local[3] = {Id % LS[0], Id / LS[0] % LS[1],
                                  Id / (LS[0] * LS[1])};
    for (int D = 0; D < 3; ++D)
      if (IndexBase->Group[D] * LS[D] + Local[D] >= IndexBase->GlobalSize[D])
        return true;
    return false;
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

  // When no work-item can run (hpp/cpu/group_collectives.h).
  bool wakeParked();
  [[noreturn]] void deadlock();
  void resolveBlocked();
  template <class Pred> static std::string ranges(std::size_t N, Pred In);
  static std::string lanes(unsigned long long Bits);
  static const char *fileOf(const CollectiveOp &Op);
  static bool sameSite(const CollectiveOp &A, const CollectiveOp &B);
  [[noreturn]] void divergent(const CollectiveOp &Op, std::size_t M,
                              const std::string &Why);
  [[noreturn]] void missingLanes(const CollectiveOp &Op, std::size_t M,
                                 unsigned long long Blocked,
                                 unsigned long long Returned,
                                 unsigned long long Past);
  std::string rangeShape() const;
  std::string finishedItems() const;
  void releaseBarrier();
  bool resolve(std::size_t M);
  const CollectiveOp *firstBlocked(std::size_t Begin, std::size_t End) const;
  bool resolveRange(std::size_t M, std::size_t Begin, std::size_t End,
                    std::size_t RBegin, std::size_t REnd);
  long shuffleSource(const CollectiveOp &Op, unsigned Lane) const;
  std::uint64_t laneResult(const CollectiveOp &Op, unsigned Lane,
                           std::size_t Begin, std::size_t End,
                           unsigned long long Part,
                           unsigned long long Pred) const;

  // Exact-mask collectives (hpp/cpu/mask_collectives.h).
  bool anyExactBlocked(std::size_t Begin, std::size_t End) const;
  static unsigned long long existingLanes(std::size_t Begin, std::size_t End);
  unsigned long long lanesAt(const CollectiveOp &Op, std::size_t Begin,
                             std::size_t End) const;
  void completeExact(std::size_t Begin, std::size_t End,
                     unsigned long long Part);
  static std::string maskText(const CollectiveOp &Op);
  static std::string hexText(unsigned long long Bits);
  std::string exactMissing(const CollectiveOp &Op, std::size_t M,
                           unsigned long long Lanes) const;
  bool resolveExact(std::size_t M, std::size_t Begin, std::size_t End);
  void reportStuckExact();

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
  const detail::IndexFields *IndexBase = nullptr;
  /// groupState()'s objects for the running group (few: a linear search).
  std::vector<std::pair<const void *, std::unique_ptr<GroupState>>> States;
};

} // namespace cpu
} // namespace hpp

#include "hpp/cpu/group_collectives.h"
#include "hpp/cpu/mask_collectives.h"

#endif // HPP_CPU_GROUP_EXECUTOR_H
