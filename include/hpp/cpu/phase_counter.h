//===- hpp/cpu/phase_counter.h - The phases of one barrier instance -------===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// PhaseCounter counts the arrivals and withdrawals of one barrier instance
/// (hpp::Barrier, __gpu_sync; hpp/cpu/barrier.h) and advances its phase.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_PHASE_COUNTER_H
#define HPP_CPU_PHASE_COUNTER_H

#include "hpp/core/error.h"
#include "hpp/core/error_text.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <utility>

namespace hpp {
namespace cpu {

/// The phase bookkeeping of one barrier instance. Thread-safe: a
/// launch-wide instance is used by the host threads of its launch.
class PhaseCounter {
public:
  /// \p File : \p Line is where the barrier was created (see describe()).
  PhaseCounter(std::size_t Count, const char *File, int Line)
      : Count(Count), File(File), Line(Line) {}

  /// Reinitialises the counter for launch \p LaunchId if it was last used
  /// by another.
  void bind(std::uint64_t LaunchId) {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Launch == LaunchId)
      return;
    Launch = LaunchId;
    Phase.store(0, std::memory_order_relaxed);
    Arrived = 0;
    Withdrawn.clear();
  }

  /// Arrival of participant \p Who (any key unique in the launch); true
  /// when it completed the phase. \p In receives the phase it arrived in.
  /// Throws if \p Who withdrew.
  bool arrive(std::pair<const void *, std::size_t> Who, std::uint64_t &In,
              const char *Name, const char *CallFile, int CallLine) {
    std::lock_guard<std::mutex> Lock(Mutex);
    checkPresent(Who, Name, CallFile, CallLine);
    In = Phase.load(std::memory_order_relaxed);
    ++Arrived;
    return completeIfDue();
  }

  /// \p Who withdraws; true when that completed the phase.
  bool withdraw(std::pair<const void *, std::size_t> Who, const char *Name,
                const char *CallFile, int CallLine) {
    std::lock_guard<std::mutex> Lock(Mutex);
    checkPresent(Who, Name, CallFile, CallLine);
    Withdrawn.insert(Who);
    return completeIfDue();
  }

  /// Whether the phase \p In is over.
  bool passed(std::uint64_t In) const {
    return Phase.load(std::memory_order_acquire) != In;
  }

  std::string describe() {
    std::lock_guard<std::mutex> Lock(Mutex);
    return detail::barrierStateText(Count, File, Line, Phase.load(), Arrived,
                                    Withdrawn.size());
  }

private:
  void checkPresent(const std::pair<const void *, std::size_t> &Who,
                    const char *Name, const char *CallFile, int CallLine) {
    if (Withdrawn.count(Who))
      throw RuntimeError(
          Name, CallFile, CallLine,
          "work-item " + std::to_string(Who.second) + " withdrew from the " +
              (File && Line > 0 ? "barrier created at " + std::string(File) +
                                      ":" + std::to_string(Line)
                                : std::string(File ? File : "barrier")) +
              " (skip) and cannot take part again");
  }
  bool completeIfDue() {
    std::size_t Expected =
        Count > Withdrawn.size() ? Count - Withdrawn.size() : 0;
    if (Expected == 0 || Arrived < Expected)
      return false;
    Arrived = 0;
    Phase.fetch_add(1, std::memory_order_release);
    return true;
  }

  const std::size_t Count;
  const char *const File;
  const int Line;
  std::mutex Mutex;
  std::uint64_t Launch = 0;
  std::atomic<std::uint64_t> Phase{0};
  std::size_t Arrived = 0;
  std::set<std::pair<const void *, std::size_t>> Withdrawn;
};

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_PHASE_COUNTER_H
