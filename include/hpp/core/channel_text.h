//===- hpp/core/channel_text.h - What a Channel says about itself ---------===//
//
// Part of hpp-rewrite. Shared by the reference runtime and the device
// runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The texts of a channel's errors and warnings. The reference runtime
/// (hpp/cpu/channel.h) and the device runtime (runtime/hpp/channel.h) both
/// print them, and the differential tests compare their output, so they
/// come from one place.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_CHANNEL_TEXT_H
#define HPP_CORE_CHANNEL_TEXT_H

#include "hpp/core/future.h"

#include <cstddef>
#include <cstdio>
#include <string>

namespace hpp {
namespace detail {

/// "the channel of capacity C declared at FILE:LINE".
inline std::string channelName(std::size_t Capacity, const char *File,
                               int Line) {
  return "the channel of capacity " + std::to_string(Capacity) +
         " declared at " + siteText(File, Line);
}

/// Why a write into the full channel \p Name fails: nothing can drain it,
/// with no consumer at all (\p HasConsumer false) or with a predicate that
/// holds for no size up to \p Capacity.
inline std::string channelFullMessage(const std::string &Name,
                                      bool HasConsumer, std::size_t Capacity) {
  if (!HasConsumer)
    return Name + " is full and no executeWith gave it a consumer: "
                  "nothing can ever drain it";
  return Name + " is full, and its predicate held for none of the " +
         std::to_string(Capacity) +
         " values it holds, so no consumer can ever drain it (a "
         "predicate must hold for some size up to the capacity)";
}

/// The error of a consumer that writes into its own channel while the
/// channel is full: nothing can drain it while that consumer runs.
inline std::string channelSelfFullMessage(const std::string &Name) {
  return Name + " is full and its own consumer writes into it: the write "
                "would wait for the consumer that makes it";
}

/// The warning of a channel \p Name destroyed holding \p Left values.
inline void warnChannelLeftovers(const std::string &Name, std::size_t Left) {
  std::fprintf(stderr,
               "hpp: warning: %s destroyed holding %zu value(s) that no "
               "consumer received\n",
               Name.c_str(), Left);
}

} // namespace detail
} // namespace hpp

#endif // HPP_CORE_CHANNEL_TEXT_H
