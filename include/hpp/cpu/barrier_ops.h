//===- hpp/cpu/barrier_ops.h - Barrier operations of a work-item ----------===//
//
// Part of hpp-rewrite. CPU reference runtime, shared with the device
// runtime's CPU backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// wait / arrive / skip of the calling work-item on a barrier instance
/// (a PhaseCounter): hpp::Barrier of the dialect (hpp/cpu/barrier.h) and
/// the device runtime's hpp::Barrier on its CPU backend run them. A
/// work-group-scope instance is the group's own (GroupExecutor::
/// groupState); a launch-wide one is shared by the launch's threads.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_BARRIER_OPS_H
#define HPP_CPU_BARRIER_OPS_H

#include "hpp/core/error.h"
#include "hpp/cpu/group_executor.h"
#include "hpp/cpu/launch_context.h"
#include "hpp/cpu/phase_counter.h"

#include <cstddef>
#include <cstdint>
#include <utility>

namespace hpp {
namespace cpu {

/// A work-group's own instance of a work-group-scope barrier.
struct GroupPhaseCounter : GroupState {
  GroupPhaseCounter(std::size_t Count, const char *File, int Line)
      : Counter(Count, File, Line) {}
  PhaseCounter Counter;
};

/// Runs wait / arrive / skip of the current work-item on \p Counter.
/// \p Shared: the counter is launch-wide.
inline void barrierOp(PhaseCounter &Counter, bool Shared, int Op,
                      const char *Name, const char *CallFile, int CallLine) {
  GroupExecutor &E = *GroupExecutor::current();
  // Work-items are told apart by their group's executor and local id.
  std::pair<const void *, std::size_t> Who(&E, E.currentItem());
  if (Shared)
    Who = {E.launch(), E.groupIndex() * E.groupSize() + E.currentItem()};
  bool Completed;
  std::uint64_t In = 0;
  if (Op == 2)
    Completed = Counter.withdraw(Who, Name, CallFile, CallLine);
  else
    Completed = Counter.arrive(Who, In, Name, CallFile, CallLine);
  if (Completed && Shared)
    E.launch()->notify();
  if (Op != 0 || Completed)
    return;
  ParkSite Site{Name,
                CallFile,
                CallLine,
                &Counter,
                In,
                [](const void *Object, std::uint64_t Token) {
                  return static_cast<const PhaseCounter *>(Object)->passed(
                      Token);
                },
                [](const void *Object) {
                  return const_cast<PhaseCounter *>(
                             static_cast<const PhaseCounter *>(Object))
                      ->describe();
                },
                Shared};
  E.park(Site);
}

inline GroupExecutor &deviceExecutor(const char *Name, const char *CallFile,
                                     int CallLine) {
  GroupExecutor *E = GroupExecutor::current();
  if (!E)
    throw RuntimeError(Name, CallFile, CallLine,
                       "a barrier is used in device code only");
  return *E;
}

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_BARRIER_OPS_H
