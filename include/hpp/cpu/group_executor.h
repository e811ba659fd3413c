//===- hpp/cpu/group_executor.h - Runs the work-items of a work-group -----===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// GroupExecutor runs the work-items of one work-group on the current host
/// thread. parallelFor only uses runGroup(); how the items are interleaved
/// is the executor's business. This version runs them one after another in
/// linear local-id order (X fastest), which is enough for bodies that do not
/// synchronise within the group. A fiber-based executor (one ucontext per
/// work-item, switching at barriers, shuffles and votes) can replace it
/// without changing parallelFor: intrinsics find the executor running them
/// through current() and the work-item through currentItem().
///
/// Work-items are grouped into mvectors of mvectorWidth() consecutive linear
/// local ids: lane = id % width, mvector = id / width.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_GROUP_EXECUTOR_H
#define HPP_CPU_GROUP_EXECUTOR_H

#include <cstddef>

namespace hpp {
namespace cpu {

/// Runs the work-items of one work-group at a time on the current thread.
class GroupExecutor {
public:
  /// \p MvectorWidth is the simulated mvector width (32 or 64).
  explicit GroupExecutor(unsigned MvectorWidth) : Width(MvectorWidth) {}
  GroupExecutor(const GroupExecutor &) = delete;
  GroupExecutor &operator=(const GroupExecutor &) = delete;

  /// Runs \p Item(LocalId) for every linear local id in [0, ItemCount) and
  /// returns when all have finished. An exception thrown by an item
  /// propagates out of runGroup; the group's remaining items do not run.
  template <class ItemFn> void runGroup(std::size_t ItemCount, ItemFn &&Item) {
    ActiveScope Scope(*this, ItemCount);
    for (std::size_t Id = 0; Id != ItemCount; ++Id) {
      Current = Id;
      Item(Id);
    }
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

  unsigned Width;
  std::size_t Size = 0;
  std::size_t Current = 0;
};

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_GROUP_EXECUTOR_H
