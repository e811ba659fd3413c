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
///    hpp::RuntimeError. The same name as a compile-time macro
///    (-DHPP_CPU_MVECTOR=64) fixes the width for the whole program: host
///    code may then use MVECTOR_SIZE as a constant (template argument, array
///    bound), and the environment variable, if set, must agree.
///  - HPP_CPU_THREADS: number of host threads that run work-groups (default
///    std::thread::hardware_concurrency()).
///  - HPP_CPU_GROUP_MEMORY: bytes of memory each work-group has for the
///    regions of a DistArray (GPU shared memory; default 48 KiB).
///  - HPP_CPU_CHECK: extra checks, a comma-separated list (both CPU
///    runtimes): `uninit` makes a read of work-group memory that no
///    work-item of the group wrote an hpp::RuntimeError
///    (hpp/cpu/group_memory.h). Read once at start-up, so that the
///    accessors only test a flag; an unknown entry makes every launch throw.
///
/// A bad value throws hpp::RuntimeError at the file and line of the user's
/// call that needed the setting (HPP_CALLER_LOCATION: a launch,
/// MVECTOR_SIZE, allocRegion...); each call retries, so each reports its
/// own line.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_SETTINGS_H
#define HPP_CPU_SETTINGS_H

#include "hpp/core/error.h"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace hpp {
namespace cpu {

/// Largest and smallest simulated mvector widths.
constexpr unsigned MaxMvectorWidth = 64;
constexpr unsigned MinMvectorWidth = 32;

#if defined(HPP_CPU_MVECTOR)
static_assert(HPP_CPU_MVECTOR == 32 || HPP_CPU_MVECTOR == 64,
              "HPP_CPU_MVECTOR (the simulated mvector width) must be 32 or 64");
/// The width the program was compiled for (-DHPP_CPU_MVECTOR).
constexpr unsigned CompiledMvectorWidth = HPP_CPU_MVECTOR;
#else
/// No compiled-in width: the environment chooses (0 = not fixed).
constexpr unsigned CompiledMvectorWidth = 0;
#endif

/// Reads HPP_CPU_MVECTOR; throws RuntimeError at \p File : \p Line unless
/// it is unset, empty, 32 or 64 (and agrees with -DHPP_CPU_MVECTOR).
inline unsigned readMvectorWidth(const char *File, int Line) {
  const char *Env = std::getenv("HPP_CPU_MVECTOR");
  unsigned Width = 0;
  if (!Env || !*Env)
    Width = CompiledMvectorWidth ? CompiledMvectorWidth : 32;
  else if (std::strcmp(Env, "32") == 0)
    Width = 32;
  else if (std::strcmp(Env, "64") == 0)
    Width = 64;
  else
    throw RuntimeError(std::string("HPP_CPU_MVECTOR=") + Env, File, Line,
                       "the simulated mvector width must be 32 or 64");
  if (CompiledMvectorWidth && Width != CompiledMvectorWidth)
    throw RuntimeError(std::string("HPP_CPU_MVECTOR=") + Env, File, Line,
                       "the program was compiled with -DHPP_CPU_MVECTOR=" +
                           std::to_string(CompiledMvectorWidth) +
                           "; the environment must agree or be unset");
  return Width;
}

/// The simulated mvector width, read from the environment on first use.
inline unsigned mvectorWidth(HPP_CALLER_LOCATION) {
  static const unsigned Width = readMvectorWidth(File, Line);
  return Width;
}

/// MVECTOR_SIZE. A constant expression only when the width is compiled in
/// (-DHPP_CPU_MVECTOR, or while hpp-rewrite parses, which needs host
/// constant uses to parse before it lowers them to a width dispatch);
/// otherwise a run-time value, and host code that needs a constant does
/// not compile.
#if defined(HPP_CPU_MVECTOR) || defined(__HPP_REWRITE__)
constexpr int mvectorSize(HPP_CALLER_LOCATION) {
  if (__builtin_is_constant_evaluated())
    return CompiledMvectorWidth ? int(CompiledMvectorWidth) : 32;
  return static_cast<int>(mvectorWidth(File, Line));
}
#else
inline int mvectorSize(HPP_CALLER_LOCATION) {
  return static_cast<int>(mvectorWidth(File, Line));
}
#endif

/// Most work-items a launch keeps suspended at launch-wide waits (its
/// work-groups must all be resident for a launch-wide barrier):
/// HPP_CPU_MAX_RESIDENT, default 65536 (each takes a fiber stack).
inline std::size_t maxResidentItems(HPP_CALLER_LOCATION) {
  static const std::size_t Max = [File, Line] {
    const char *Env = std::getenv("HPP_CPU_MAX_RESIDENT");
    if (!Env || !*Env)
      return std::size_t(65536);
    char *End = nullptr;
    unsigned long long N = std::strtoull(Env, &End, 10);
    if (*End != '\0' || Env[0] == '-' || N == 0)
      throw RuntimeError(std::string("HPP_CPU_MAX_RESIDENT=") + Env, File, Line,
                         "must be a positive integer");
    return static_cast<std::size_t>(N);
  }();
  return Max;
}

/// Reads HPP_CPU_THREADS (a positive integer); defaults to the number of
/// hardware threads.
inline unsigned readThreadCount(HPP_CALLER_LOCATION) {
  const char *Env = std::getenv("HPP_CPU_THREADS");
  if (!Env || !*Env) {
    unsigned N = std::thread::hardware_concurrency();
    return N == 0 ? 1 : N;
  }
  char *End = nullptr;
  unsigned long N = std::strtoul(Env, &End, 10);
  if (*End != '\0' || Env[0] == '-' || N == 0 || N > 4096)
    throw RuntimeError(std::string("HPP_CPU_THREADS=") + Env, File, Line,
                       "the thread count must be an integer from 1 to 4096");
  return static_cast<unsigned>(N);
}

/// Largest HPP_CPU_GROUP_MEMORY accepted (1 GiB).
constexpr std::size_t MaxGroupMemoryBytes = std::size_t(1) << 30;

/// Bytes of memory one work-group has for the regions of a DistArray (the
/// shared memory of a GPU work-group; hpp/cpu/dist_array.h):
/// HPP_CPU_GROUP_MEMORY, default 49152 (48 KiB, CUDA's limit for static
/// shared memory). Throws RuntimeError unless it is an integer from 1 to
/// MaxGroupMemoryBytes.
inline std::size_t groupMemoryBytes(HPP_CALLER_LOCATION) {
  static const std::size_t Bytes = [File, Line] {
    const char *Env = std::getenv("HPP_CPU_GROUP_MEMORY");
    if (!Env || !*Env)
      return std::size_t(48 * 1024);
    char *End = nullptr;
    unsigned long long N = std::strtoull(Env, &End, 10);
    if (*End != '\0' || Env[0] == '-' || N == 0 || N > MaxGroupMemoryBytes)
      throw RuntimeError(std::string("HPP_CPU_GROUP_MEMORY=") + Env, File, Line,
                         "the memory of a work-group must be an integer "
                         "number of bytes from 1 to " +
                             std::to_string(MaxGroupMemoryBytes));
    return static_cast<std::size_t>(N);
  }();
  return Bytes;
}

/// The checks HPP_CPU_CHECK asks for.
struct CheckSettings {
  bool Uninit = false;
  std::string Value;   ///< HPP_CPU_CHECK as set.
  std::string Unknown; ///< An entry that names no check (empty if none).
};

/// Parses HPP_CPU_CHECK (never throws: it runs during static
/// initialization).
inline CheckSettings readCheckSettings() {
  CheckSettings S;
  const char *Env = std::getenv("HPP_CPU_CHECK");
  std::string List = Env ? Env : "";
  S.Value = List;
  for (std::size_t Begin = 0; Begin <= List.size();) {
    std::size_t End = List.find(',', Begin);
    if (End == std::string::npos)
      End = List.size();
    std::string Entry = List.substr(Begin, End - Begin);
    if (Entry == "uninit")
      S.Uninit = true;
    else if (!Entry.empty() && S.Unknown.empty())
      S.Unknown = Entry;
    Begin = End + 1;
  }
  return S;
}

/// HPP_CPU_CHECK, read before main.
inline const CheckSettings CheckFromEnvironment = readCheckSettings();

/// Whether HPP_CPU_CHECK contains `uninit`.
inline bool checkUninit() { return CheckFromEnvironment.Uninit; }

/// Throws RuntimeError when HPP_CPU_CHECK names an unknown check; every
/// launch calls it.
inline void validateCheckSettings(HPP_CALLER_LOCATION) {
  const CheckSettings &S = CheckFromEnvironment;
  const std::string &Unknown = S.Unknown;
  if (!Unknown.empty())
    throw RuntimeError("HPP_CPU_CHECK=" + S.Value, File, Line,
                       "unknown check '" + Unknown +
                           "'; the CPU runtimes know: uninit");
}

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_SETTINGS_H
