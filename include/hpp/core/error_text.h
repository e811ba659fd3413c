//===- hpp/core/error_text.h - The texts of device-code errors ------------===//
//
// Part of hpp-rewrite. Shared by the reference runtime and the device
// runtime (host code only).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The wording of the errors device code raises: a Segment index out of
/// range and a Barrier deadlock. The reference runtime (hpp/cpu/segment.h,
/// hpp/cpu/group_collectives.h, hpp/cpu/phase_counter.h) raises them
/// itself; on a GPU the device records numbers and the host words them
/// (runtime/hpp/device_error.h). Both use these functions, so that a GPU
/// reports what the reference reports, to the letter.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_ERROR_TEXT_H
#define HPP_CORE_ERROR_TEXT_H

#include <cstddef>
#include <string>

namespace hpp {
namespace detail {

/// "1 element", "N elements".
inline std::string elementsText(std::size_t N) {
  return std::to_string(N) + (N == 1 ? " element" : " elements");
}

/// Why `s[i]` failed: "index 8 is out of range for a segment of 8
/// elements" (\p Negative: the index was -( 2^64 - \p Value )).
inline std::string segmentIndexText(std::size_t Value, bool Negative,
                                    std::size_t Size) {
  return "index " +
         (Negative ? "-" + std::to_string(std::size_t(0) - Value)
                   : std::to_string(Value)) +
         " is out of range for a segment of " + elementsText(Size);
}

/// "a-b,c" for the ids in [0, \p N) where \p In is true, "none" if none.
template <class Pred> std::string idRanges(std::size_t N, Pred In) {
  std::string S;
  for (std::size_t L = 0; L < N;) {
    if (!In(L)) {
      ++L;
      continue;
    }
    std::size_t E = L;
    while (E + 1 < N && In(E + 1))
      ++E;
    if (!S.empty())
      S += ",";
    S += std::to_string(L);
    if (E != L)
      S += "-" + std::to_string(E);
    L = E + 1;
  }
  return S.empty() ? "none" : S;
}

/// A barrier instance and its state, as a deadlock names it: "barrier of
/// 64 participants created at FILE:LINE, phase 0: 63 arrived, 0 withdrew".
/// \p File and \p Line are where it was created; a \p File without a Line
/// names an implicit barrier (__gpu_sync); neither: a runtime handle.
inline std::string barrierStateText(std::size_t Count, const char *File,
                                    int Line, unsigned long long Phase,
                                    std::size_t Arrived,
                                    std::size_t Withdrawn) {
  std::string What;
  if (File && Line > 0)
    What = "barrier of " + std::to_string(Count) + " participants created at " +
           File + ":" + std::to_string(Line);
  else if (File)
    What = std::string(File) + " of " + std::to_string(Count) + " work-items";
  else
    What = "barrier of " + std::to_string(Count) + " participants";
  return What + ", phase " + std::to_string(Phase) + ": " +
         std::to_string(Arrived) + " arrived, " + std::to_string(Withdrawn) +
         " withdrew";
}

/// "global size 20x2 is not a multiple of the work-group size 16x2" for a
/// launch of \p Global work-items in groups of \p Local (three extents,
/// trailing 1s dropped).
inline std::string rangeShapeText(const std::size_t Global[3],
                                  const std::size_t Local[3]) {
  int Dims = 1;
  for (int D = 1; D < 3; ++D)
    if (Global[D] != 1 || Local[D] != 1)
      Dims = D + 1;
  std::string G, L;
  for (int D = 0; D < Dims; ++D) {
    G += (D ? "x" : "") + std::to_string(Global[D]);
    L += (D ? "x" : "") + std::to_string(Local[D]);
  }
  return "global size " + G + " is not a multiple of the work-group size " + L;
}

/// Whether work-item \p Id (linear, X fastest) of work-group \p Group lies
/// past the end of a launch of \p Global work-items in groups of \p Local.
inline bool pastRangeOf(std::size_t Id, const std::size_t Group[3],
                        const std::size_t Global[3],
                        const std::size_t Local[3]) {
  const std::size_t At[3] = {Id % Local[0], Id / Local[0] % Local[1],
                             Id / (Local[0] * Local[1])};
  for (int D = 0; D < 3; ++D)
    if (Group[D] * Local[D] + At[D] >= Global[D])
      return true;
  return false;
}

/// What a deadlocked work-group is told: "deadlock: work-items \p Waiting
/// wait (\p State)\p Others, and no work-item of the work-group can arrive
/// (\p Finished, work-group of \p Size)". \p Others is "" or "; work-item
/// I waits at NAME at FILE:LINE"; \p Finished is finishedText's.
inline std::string deadlockText(const std::string &Waiting,
                                const std::string &State,
                                const std::string &Others,
                                const std::string &Finished, std::size_t Size) {
  return "deadlock: work-items " + Waiting + " wait (" + State + ")" + Others +
         ", and no work-item of the work-group can arrive (" + Finished +
         ", work-group of " + std::to_string(Size) + ")";
}

/// "exited: \p Exited", and when some work-items lie past the end of the
/// range (\p Past not "none"): "; past the end of the range (\p Shape),
/// never running the body: \p Past".
inline std::string finishedText(const std::string &Exited,
                                const std::string &Past,
                                const std::string &Shape) {
  std::string S = "exited: " + Exited;
  if (Past != "none")
    S += "; past the end of the range (" + Shape +
         "), never running the body: " + Past;
  return S;
}

} // namespace detail
} // namespace hpp

#endif // HPP_CORE_ERROR_TEXT_H
