//===- hpp/cpu/barrier.h - Barrier objects and __gpu_sync on the CPU ------===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp::Barrier (spec 1.7): created on the host with a participant count,
/// captured by reference, used in device code inside any control flow:
///  - wait(): arrive, then block until every participant that has not
///    withdrawn has arrived in this phase;
///  - arrive(): count for this phase without waiting (a producer);
///  - skip(): withdraw from this phase and every later one (an early loop
///    exit, the other side of a branch).
/// A phase completes when its arrivals reach the count minus the withdrawn
/// participants; arrivals past that count for the next phase.
///
/// Participants: a count up to the work-group size means the work-items of
/// one work-group, and every work-group gets its own barrier state (as a GPU
/// keeps it in shared memory). A larger count means work-items of the whole
/// launch: one state for the launch. Either way the state is fresh for each
/// launch. __gpu_sync() is a launch-wide barrier whose participants are all
/// the launch's work-items that run the body.
///
/// A blocked work-item parks in its GroupExecutor (hpp/cpu/group_executor.h):
/// it does not hold up its mvector's other lanes. When no participant is
/// left to arrive, the wait throws hpp::RuntimeError with its file:line and
/// the barrier's state (where it was created, phase, arrivals, withdrawals)
/// instead of hanging: within a work-group at once, launch-wide once every
/// host thread of the launch has nothing left to run
/// (hpp/cpu/launch_context.h). Waiting or arriving after skip() is an error
/// too.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_BARRIER_H
#define HPP_CPU_BARRIER_H

#include "hpp/core/error.h"
#include "hpp/cpu/barrier_ops.h"
#include "hpp/cpu/gpu_sync.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace hpp {

/// A barrier whose participants may arrive, wait or withdraw in divergent
/// control flow.
class Barrier {
public:
  /// A barrier of \p Count participants per phase (host code).
  explicit Barrier(std::size_t Count, const char *File = __builtin_FILE(),
                   int Line = __builtin_LINE())
      : Count(Count), File(File), Line(Line), Wide(Count, File, Line) {
    if (Count == 0)
      throw RuntimeError("hpp::Barrier", File, Line,
                         "a barrier needs at least one participant");
  }
  Barrier(const Barrier &) = delete;
  Barrier &operator=(const Barrier &) = delete;

  /// Participants per phase.
  std::size_t getCount() const { return Count; }

  /// Arrives, then waits until the phase completes.
  void wait(const char *CallFile = __builtin_FILE(),
            int CallLine = __builtin_LINE()) {
    run(0, "Barrier::wait", CallFile, CallLine);
  }
  /// Counts the calling participant for this phase without waiting.
  void arrive(const char *CallFile = __builtin_FILE(),
              int CallLine = __builtin_LINE()) {
    run(1, "Barrier::arrive", CallFile, CallLine);
  }
  /// Withdraws the calling participant from this and every later phase.
  void skip(const char *CallFile = __builtin_FILE(),
            int CallLine = __builtin_LINE()) {
    run(2, "Barrier::skip", CallFile, CallLine);
  }

private:
  void run(int Op, const char *Name, const char *CallFile, int CallLine) {
    cpu::GroupExecutor &E = cpu::deviceExecutor(Name, CallFile, CallLine);
    if (Count <= E.groupSize()) {
      auto &G = E.groupState<cpu::GroupPhaseCounter>(this, [&] {
        return std::unique_ptr<cpu::GroupState>(
            new cpu::GroupPhaseCounter(Count, File, Line));
      });
      cpu::barrierOp(G.Counter, false, Op, Name, CallFile, CallLine);
      return;
    }
    if (!E.launch())
      throw RuntimeError(Name, CallFile, CallLine,
                         "a barrier of " + std::to_string(Count) +
                             " participants spans work-groups, which only a "
                             "parallelFor launch supports");
    Wide.bind(E.launch()->id());
    cpu::barrierOp(Wide, true, Op, Name, CallFile, CallLine);
  }

  std::size_t Count;
  const char *File;
  int Line;
  cpu::PhaseCounter Wide; ///< The launch-wide instance.
};

} // namespace hpp

#endif // HPP_CPU_BARRIER_H
