//===- hpp/core/algorithms.h - Reduce, scan, select, histogram ------------===//
//
// Part of hpp-rewrite. Shared by the CPU reference runtime and the device
// runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The runtime's performance kernels, called from host code like
/// parallelFor (they return when the work is done):
///
///   T    reduce(Pointer<T> in, size_t n, T init = T(), Op op = Plus<T>())
///   void inclusiveScan(Pointer<T> in, Pointer<T> out, size_t n, Op op)
///   void exclusiveScan(Pointer<T> in, Pointer<T> out, size_t n, T init, Op)
///   size_t select(Pointer<T> in, Pointer<T> out, size_t n, Pred pred)
///   void histogram(Pointer<T> in, size_t n, Pointer<C> bins, int numBins,
///                  T lower, T upper)
///
/// On the CPU (the dialect's reference runtime and the device runtime's
/// CPU backend) they run the reference implementations, which define the
/// results: reduce and the scans combine in the order of
/// hpp/core/algorithm_order.h, the same bits on every backend and width;
/// select is stable; histogram counts exactly. On a GPU backend they call
/// hpp::detail::gpu (runtime/hpp/backend/gpu_algorithms.h), which must be
/// declared before this header is included.
///
/// Misuse throws RuntimeError at the caller's line: n beyond a Pointer's
/// size, overlapping input and output (other than a scan in place), fewer
/// bins than numBins, an empty or NaN bin range. They run on their input's
/// device (in.getDevice()); on the CPU runtimes an out or bins Pointer of
/// another device that device has no peer access to (hpp/cpu/device_sim.h)
/// is refused too, as a kernel on in's device using it would be.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CORE_ALGORITHMS_H
#define HPP_CORE_ALGORITHMS_H

#include "hpp/core/algorithm_order.h"
#include "hpp/core/config.h"
#include "hpp/core/error.h"
#include "hpp/core/pointer.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace hpp {

/// a + b.
template <class T> struct Plus {
  HPP_HD T operator()(const T &A, const T &B) const { return A + B; }
};
/// The smaller of a and b (a on a tie).
template <class T> struct Minimum {
  HPP_HD T operator()(const T &A, const T &B) const { return B < A ? B : A; }
};
/// The larger of a and b (a on a tie).
template <class T> struct Maximum {
  HPP_HD T operator()(const T &A, const T &B) const { return A < B ? B : A; }
};

namespace detail {

/// Throws RuntimeError(Call, File, Line, Why).
[[noreturn]] inline void algorithmMisuse(const char *Call,
                                         const std::string &Why,
                                         const char *File, int Line) {
  throw RuntimeError(Call, File, Line, Why);
}

/// \p P holds at least \p N elements.
template <class T>
void checkExtent(const Pointer<T> &P, std::size_t N, const char *Call,
                 const char *What, const char *File, int Line) {
  if (N != 0 && !P)
    algorithmMisuse(Call, std::string(What) + " is a null Pointer", File, Line);
  if (N > P.size())
    algorithmMisuse(Call,
                    "n = " + std::to_string(N) + " but " + What + " holds " +
                        std::to_string(P.size()) + " elements",
                    File, Line);
}

/// \p P (named \p What) is memory that a kernel on \p In's device may use:
/// on the CPU runtimes, where the algorithms run as host code, the check
/// that Pointer makes in a kernel (hpp/cpu/device_sim.h).
template <class T, class U>
void checkOnInputDevice(const Pointer<T> &In, const Pointer<U> &P,
                        const char *Call, const char *What, const char *File,
                        int Line) {
#if defined(HPP_BACKEND_CPU)
  const int D = In.getDevice().getId(), E = P.getDevice().getId();
  if (D == E || cpu::simulatedPeerEnabled(D, E))
    return;
  cpu::AllocationRecord R{};
  std::string Where;
  if (cpu::AllocationTable::get().find(P.get(), R))
    Where = " allocated at " + siteText(R.File, R.Line);
  const std::string DS = std::to_string(D), ES = std::to_string(E);
  algorithmMisuse(Call,
                  std::string("it runs on in's device ") + DS + ", and " +
                      What + " is memory of device " + ES + Where +
                      "; copy it to device " + DS +
                      " first (hpp::copy) or call enablePeerAccess(Device(" +
                      DS + "), Device(" + ES + "))",
                  File, Line);
#else
  (void)In, (void)P, (void)Call, (void)What, (void)File, (void)Line;
#endif
}

/// [A, A + N) and [B, B + N) share no element; with \p SameOk, A == B is
/// allowed too (a scan in place).
template <class T>
void checkApart(const T *A, const T *B, std::size_t N, bool SameOk,
                const char *Call, const char *File, int Line) {
  if (N == 0 || (SameOk && A == B))
    return;
  auto Lo = reinterpret_cast<std::uintptr_t>(A);
  auto Lo2 = reinterpret_cast<std::uintptr_t>(B);
  std::uintptr_t Bytes = N * sizeof(T);
  if (Lo < Lo2 + Bytes && Lo2 < Lo + Bytes)
    algorithmMisuse(Call,
                    SameOk ? "in and out overlap without being the same "
                             "array (a scan in place passes the same Pointer)"
                           : "in and out overlap",
                    File, Line);
}

/// The bin of \p X in numBins even bins over [Lower, Upper), or -1 when X is
/// outside (or NaN). Exact for integers up to 32 bits; for floating point,
/// (X - Lower) * Scale with Scale = T(NumBins) / (Upper - Lower), rounded
/// down and clamped to the last bin.
template <class T> struct EvenBins {
  static_assert(std::is_arithmetic<T>::value && sizeof(T) <= 8,
                "histogram: samples are integers of at most 32 bits or "
                "floating point");
  static_assert(!std::is_integral<T>::value || sizeof(T) <= 4,
                "histogram: integer samples of at most 32 bits");
  T Lower, Upper;
  T Scale; // floating point only
  int NumBins;

  EvenBins(T Lower, T Upper, int NumBins)
      : Lower(Lower), Upper(Upper), Scale(scaleOf(Lower, Upper, NumBins)),
        NumBins(NumBins) {}

  /// T(NumBins) / (Upper - Lower) for floating point (0 for integers,
  /// whose bins are computed in 64 bits).
  static T scaleOf(T Lower, T Upper, int NumBins) {
    if constexpr (std::is_floating_point<T>::value)
      return T(NumBins) / (Upper - Lower);
    else
      return T(0);
  }

  HPP_HD int operator()(T X) const {
    if (!(Lower <= X && X < Upper))
      return -1;
    if constexpr (std::is_integral<T>::value) {
      std::uint64_t Offset =
          std::uint64_t(std::int64_t(X) - std::int64_t(Lower));
      std::uint64_t Span =
          std::uint64_t(std::int64_t(Upper) - std::int64_t(Lower));
      return int(Offset * std::uint64_t(NumBins) / Span);
    } else {
      T Pos = (X - Lower) * Scale;
      int Bin = int(Pos);
      return Bin < NumBins ? Bin : NumBins - 1;
    }
  }
};

template <class T, class Pred>
std::size_t refSelect(const T *In, T *Out, std::size_t N, Pred P) {
  std::size_t Kept = 0;
  for (std::size_t I = 0; I != N; ++I)
    if (P(In[I]))
      Out[Kept++] = In[I];
  return Kept;
}

template <class T, class C>
void refHistogram(const T *In, std::size_t N, C *Bins, const EvenBins<T> &B) {
  for (int I = 0; I != B.NumBins; ++I)
    Bins[I] = C(0);
  for (std::size_t I = 0; I != N; ++I) {
    int Bin = B(In[I]);
    if (Bin >= 0)
      ++Bins[Bin];
  }
}

} // namespace detail

/// init (+) the elements in[0 .. n), combined in the order of
/// hpp/core/algorithm_order.h. \p op must be associative and commutative.
template <class T, class Op = Plus<T>>
T reduce(Pointer<T> In, std::size_t N, T Init = T(), Op O = Op(),
         HPP_CALLER_LOCATION) {
  detail::checkExtent(In, N, "reduce", "in", File, Line);
#if defined(HPP_BACKEND_CPU)
  return detail::refReduce(In.get(), N, Init, O);
#else
  return detail::gpu::reduce(In, N, Init, O, File, Line);
#endif
}

/// out[i] = in[0] (+) ... (+) in[i]. \p in and \p out may be the same.
template <class T, class Op = Plus<T>>
void inclusiveScan(Pointer<T> In, Pointer<T> Out, std::size_t N, Op O = Op(),
                   HPP_CALLER_LOCATION) {
  detail::checkExtent(In, N, "inclusiveScan", "in", File, Line);
  detail::checkExtent(Out, N, "inclusiveScan", "out", File, Line);
  detail::checkOnInputDevice(In, Out, "inclusiveScan", "out", File, Line);
  detail::checkApart(In.get(), Out.get(), N, true, "inclusiveScan", File, Line);
#if defined(HPP_BACKEND_CPU)
  detail::refScan(In.get(), Out.get(), N, false, T(), O);
#else
  detail::gpu::scan(In, Out, N, false, T(), O, File, Line);
#endif
}

/// out[i] = init (+) in[0] (+) ... (+) in[i - 1] (out[0] = init).
template <class T, class Op = Plus<T>>
void exclusiveScan(Pointer<T> In, Pointer<T> Out, std::size_t N, T Init = T(),
                   Op O = Op(), HPP_CALLER_LOCATION) {
  detail::checkExtent(In, N, "exclusiveScan", "in", File, Line);
  detail::checkExtent(Out, N, "exclusiveScan", "out", File, Line);
  detail::checkOnInputDevice(In, Out, "exclusiveScan", "out", File, Line);
  detail::checkApart(In.get(), Out.get(), N, true, "exclusiveScan", File, Line);
#if defined(HPP_BACKEND_CPU)
  detail::refScan(In.get(), Out.get(), N, true, Init, O);
#else
  detail::gpu::scan(In, Out, N, true, Init, O, File, Line);
#endif
}

/// Copies the elements x of in[0 .. n) with pred(x) to out, in their order;
/// returns how many. out must hold n elements and not overlap in.
template <class T, class Pred>
std::size_t select(Pointer<T> In, Pointer<T> Out, std::size_t N, Pred P,
                   HPP_CALLER_LOCATION) {
  detail::checkExtent(In, N, "select", "in", File, Line);
  detail::checkExtent(Out, N, "select", "out", File, Line);
  detail::checkOnInputDevice(In, Out, "select", "out", File, Line);
  detail::checkApart(In.get(), Out.get(), N, false, "select", File, Line);
#if defined(HPP_BACKEND_CPU)
  return detail::refSelect(In.get(), Out.get(), N, P);
#else
  return detail::gpu::select(In, Out, N, P, File, Line);
#endif
}

/// bins[b] = the number of samples of in[0 .. n) in bin b of numBins even
/// bins over [lower, upper) (EvenBins says which bin); samples outside are
/// not counted. Every bins[0 .. numBins) is written.
template <class T, class C>
void histogram(Pointer<T> In, std::size_t N, Pointer<C> Bins, int NumBins,
               T Lower, T Upper, HPP_CALLER_LOCATION) {
  static_assert(std::is_integral<C>::value && sizeof(C) >= 4,
                "histogram: bins count in int, unsigned, long long or "
                "unsigned long long");
  detail::checkExtent(In, N, "histogram", "in", File, Line);
  if (NumBins < 1)
    detail::algorithmMisuse(
        "histogram", "numBins = " + std::to_string(NumBins) + " (at least 1)",
        File, Line);
  detail::checkExtent(Bins, std::size_t(NumBins), "histogram", "bins", File,
                      Line);
  detail::checkOnInputDevice(In, Bins, "histogram", "bins", File, Line);
  if (!(Lower < Upper))
    detail::algorithmMisuse(
        "histogram", "the bin range [lower, upper) is empty", File, Line);
  detail::EvenBins<T> B(Lower, Upper, NumBins);
#if defined(HPP_BACKEND_CPU)
  detail::refHistogram(In.get(), N, Bins.get(), B);
#else
  detail::gpu::histogram(In, N, Bins, B, File, Line);
#endif
}

} // namespace hpp

#endif // HPP_CORE_ALGORITHMS_H
