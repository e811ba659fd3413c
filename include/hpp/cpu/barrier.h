//===- hpp/cpu/barrier.h - Barrier objects on the CPU ---------------------===//
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
/// one work-group, and every work-group of the launch gets its own barrier
/// state (as a GPU keeps it in shared memory), fresh for each launch. A
/// larger count (participants across work-groups) is refused with
/// hpp::RuntimeError for now.
///
/// Blocked work-items park in the GroupExecutor (hpp/cpu/group_executor.h):
/// they do not hold up their mvector's other lanes, and when every
/// work-item of the group is parked with no one left to arrive, the wait
/// throws hpp::RuntimeError with its file:line and the barrier's state
/// (where it was created, its phase, arrivals and withdrawals) instead of
/// hanging. A participant that waits or arrives after it withdrew is an
/// error too.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_BARRIER_H
#define HPP_CPU_BARRIER_H

#include "hpp/core/error.h"
#include "hpp/cpu/group_executor.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hpp {

/// A barrier whose participants may arrive, wait or withdraw in divergent
/// control flow.
class Barrier {
public:
  /// A barrier of \p Count participants per phase (host code).
  explicit Barrier(std::size_t Count, const char *File = __builtin_FILE(),
                   int Line = __builtin_LINE())
      : Count(Count), File(File), Line(Line) {
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
    cpu::GroupExecutor &E = executor("Barrier::wait", CallFile, CallLine);
    State &S = state(E, "Barrier::wait", CallFile, CallLine);
    const std::uint64_t Phase = S.Phase;
    if (S.arrive())
      return;
    E.park({"Barrier::wait", CallFile, CallLine, &S, Phase,
            [](const void *Object, std::uint64_t Token) {
              return static_cast<const State *>(Object)->Phase != Token;
            },
            [](const void *Object) {
              return static_cast<const State *>(Object)->describe();
            }});
  }

  /// Counts the calling participant for this phase without waiting.
  void arrive(const char *CallFile = __builtin_FILE(),
              int CallLine = __builtin_LINE()) {
    cpu::GroupExecutor &E = executor("Barrier::arrive", CallFile, CallLine);
    state(E, "Barrier::arrive", CallFile, CallLine).arrive();
  }

  /// Withdraws the calling participant from this and every later phase.
  void skip(const char *CallFile = __builtin_FILE(),
            int CallLine = __builtin_LINE()) {
    cpu::GroupExecutor &E = executor("Barrier::skip", CallFile, CallLine);
    State &S = state(E, "Barrier::skip", CallFile, CallLine);
    S.Withdrawn[E.currentItem()] = true;
    ++S.WithdrawnCount;
    S.completeIfDue();
  }

private:
  /// One work-group's view of the barrier.
  struct State : cpu::GroupState {
    const Barrier *Owner;
    std::uint64_t Phase = 0;
    std::size_t Arrived = 0;
    std::size_t WithdrawnCount = 0;
    std::vector<bool> Withdrawn; ///< By linear local id.

    State(const Barrier *Owner, std::size_t GroupSize)
        : Owner(Owner), Withdrawn(GroupSize, false) {}

    std::size_t expected() const {
      return Owner->Count > WithdrawnCount ? Owner->Count - WithdrawnCount
                                           : 0;
    }
    /// Ends the phase when every remaining participant has arrived.
    bool completeIfDue() {
      if (expected() == 0 || Arrived < expected())
        return false;
      ++Phase;
      Arrived = 0;
      return true;
    }
    /// Counts an arrival; true when it completed the phase.
    bool arrive() {
      ++Arrived;
      return completeIfDue();
    }
    std::string describe() const {
      return "barrier of " + std::to_string(Owner->Count) +
             " participants created at " + Owner->File + ":" +
             std::to_string(Owner->Line) + ", phase " + std::to_string(Phase) +
             ": " + std::to_string(Arrived) + " arrived, " +
             std::to_string(WithdrawnCount) + " withdrew";
    }
  };

  static cpu::GroupExecutor &executor(const char *Name, const char *CallFile,
                                      int CallLine) {
    cpu::GroupExecutor *E = cpu::GroupExecutor::current();
    if (!E)
      throw RuntimeError(Name, CallFile, CallLine,
                         "a barrier is used in device code only");
    return *E;
  }

  /// The calling work-group's state; checks the participant count and that
  /// the caller has not withdrawn.
  State &state(cpu::GroupExecutor &E, const char *Name, const char *CallFile,
               int CallLine) const {
    if (Count > E.groupSize())
      throw RuntimeError(
          Name, CallFile, CallLine,
          "barrier of " + std::to_string(Count) + " participants (created at " +
              File + ":" + std::to_string(Line) +
              ") is larger than the work-group of " +
              std::to_string(E.groupSize()) +
              ": barriers across work-groups are not supported by the CPU "
              "runtime yet");
    State &S = E.groupState<State>(this, [&] {
      return std::unique_ptr<cpu::GroupState>(new State(this, E.groupSize()));
    });
    if (S.Withdrawn[E.currentItem()])
      throw RuntimeError(Name, CallFile, CallLine,
                         "work-item " + std::to_string(E.currentItem()) +
                             " withdrew from the barrier created at " + File +
                             ":" + std::to_string(Line) +
                             " (skip) and cannot take part again");
    return S;
  }

  std::size_t Count;
  const char *File;
  int Line;
};

} // namespace hpp

#endif // HPP_CPU_BARRIER_H
