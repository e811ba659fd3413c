//===- hpp/cpu/settings.h - Run-time settings of the CPU runtime ----------===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Settings read once from the environment:
///  - HPP_CPU_MVECTOR: the simulated mvector (warp) width, 32 or 64
///    (default 32). Any other value makes MVECTOR_SIZE and parallelFor throw
///    hpp::RuntimeError.
///  - HPP_CPU_THREADS: number of host threads that run work-groups (default
///    std::thread::hardware_concurrency()).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_SETTINGS_H
#define HPP_CPU_SETTINGS_H

#include "hpp/core/error.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace hpp {
namespace cpu {

/// Largest and smallest simulated mvector widths.
constexpr unsigned MaxMvectorWidth = 64;
constexpr unsigned MinMvectorWidth = 32;

/// Reads HPP_CPU_MVECTOR; throws RuntimeError unless it is unset, empty, 32
/// or 64.
inline unsigned readMvectorWidth() {
  const char *Env = std::getenv("HPP_CPU_MVECTOR");
  if (!Env || !*Env)
    return 32;
  if (std::strcmp(Env, "32") == 0)
    return 32;
  if (std::strcmp(Env, "64") == 0)
    return 64;
  throw RuntimeError(std::string("HPP_CPU_MVECTOR=") + Env, __FILE__, __LINE__,
                     "the simulated mvector width must be 32 or 64");
}

/// The simulated mvector width, read from the environment on first use.
inline unsigned mvectorWidth() {
  static const unsigned Width = readMvectorWidth();
  return Width;
}

/// Reads HPP_CPU_THREADS (a positive integer); defaults to the number of
/// hardware threads.
inline unsigned readThreadCount() {
  const char *Env = std::getenv("HPP_CPU_THREADS");
  if (!Env || !*Env) {
    unsigned N = std::thread::hardware_concurrency();
    return N == 0 ? 1 : N;
  }
  char *End = nullptr;
  unsigned long N = std::strtoul(Env, &End, 10);
  if (*End != '\0' || Env[0] == '-' || N == 0 || N > 4096)
    throw RuntimeError(std::string("HPP_CPU_THREADS=") + Env, __FILE__,
                       __LINE__,
                       "the thread count must be an integer from 1 to 4096");
  return static_cast<unsigned>(N);
}

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_SETTINGS_H
