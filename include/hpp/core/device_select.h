//===- hpp/core/device_select.h - The default device from HPP_DEVICE ------===//
//
// Part of hpp-rewrite. Shared by every backend (host code only).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rule of docs/devices.md that picks the default device, written once
/// for every runtime: HPP_DEVICE unset or empty gives device 0; a number k
/// gives k when k < Count; `local-rank` gives the process's node-local MPI
/// rank modulo Count, read from the first of OMPI_COMM_WORLD_LOCAL_RANK,
/// MPI_LOCALRANKID, MV2_COMM_WORLD_LOCAL_RANK and SLURM_LOCALID that is set
/// (0 when none is). Anything else is an hpp::RuntimeError at the caller's
/// line.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_DEVICE_SELECT_H
#define HPP_CORE_DEVICE_SELECT_H

#include "hpp/core/error.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace hpp {
namespace detail {

/// The environment variables that hold a process's node-local MPI rank, in
/// the order they are tried (Open MPI, MPICH and Intel MPI, MVAPICH2,
/// Slurm's srun).
constexpr const char *LocalRankVariables[] = {
    "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
    "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"};

/// Parses \p Text as a non-negative decimal integer below 2^31; false if
/// it is not one.
inline bool parseDeviceNumber(const char *Text, long &Out) {
  if (!Text || *Text < '0' || *Text > '9')
    return false;
  char *End = nullptr;
  long N = std::strtol(Text, &End, 10);
  if (*End != '\0' || N < 0 || N > 0x7fffffffL)
    return false;
  Out = N;
  return true;
}

/// The default device of a platform with \p Count devices (Count >= 1),
/// from HPP_DEVICE (see the file comment); throws RuntimeError at \p File
/// : \p Line, the call that needed the default device, when HPP_DEVICE is
/// not a device of this platform.
inline int selectDefaultDevice(int Count, const char *File, int Line) {
  const char *Env = std::getenv("HPP_DEVICE");
  if (!Env || !*Env)
    return 0;
  const std::string Call = std::string("HPP_DEVICE=") + Env;
  long K = 0;
  if (parseDeviceNumber(Env, K)) {
    if (K >= Count)
      throw RuntimeError(Call, File, Line,
                         "there is no device " + std::to_string(K) +
                             ": the platform has " + std::to_string(Count) +
                             " device(s), 0 to " + std::to_string(Count - 1));
    return static_cast<int>(K);
  }
  if (std::strcmp(Env, "local-rank") == 0) {
    for (const char *Name : LocalRankVariables) {
      const char *Rank = std::getenv(Name);
      if (!Rank || !*Rank)
        continue;
      long R = 0;
      if (!parseDeviceNumber(Rank, R))
        throw RuntimeError(Call, File, Line,
                           std::string(Name) + "=" + Rank +
                               " is not a node-local rank (a non-negative "
                               "integer)");
      return static_cast<int>(R % Count);
    }
    return 0;
  }
  throw RuntimeError(Call, File, Line,
                     "HPP_DEVICE must be unset, a device number from 0 to " +
                         std::to_string(Count - 1) + ", or local-rank");
}

} // namespace detail
} // namespace hpp

#endif // HPP_CORE_DEVICE_SELECT_H
