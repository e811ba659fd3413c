//===- hpp/launch_graph.h - A launch and its eager consumers as one graph -===//
//
// Part of hpp-rewrite. Device runtime, CUDA and HIP backends.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// detail::LaunchGraph: on CUDA, a launch with after-launch work (a
/// producer that writes a channel, hpp/launch.h step 7) and the kernels
/// that work launches behind it (the channel's eager consumers) are
/// submitted together as one CUDA graph, instead of one launch call after
/// the other. The consumers are then on the device before their producer
/// starts: a predicate that becomes true at the producer's first write has
/// its consumer running about 1 us later, against 3.5-5 us when the
/// consumer's launch call comes after the producer has started (that gap
/// is the host's: docs/benchmarks.md, "Predicate true -> consumer
/// running").
///
/// How: while a LaunchGraph records, launchOnBackend (hpp/backend/gpu.h)
/// records each launch (kernel, shape, a copy of its arguments, whether it
/// is a programmatic dependent launch) instead of making it. At the end,
/// one launch is made as it was; several become a graph. The executable
/// graph is kept per stream and sequence of kernels (thread-local, at most
/// MaxKept) and only gets the new arguments next time
/// (cudaGraphExecKernelNodeSetParams): a capture and an update each time
/// cost 5.5 us more on the host before the producer started. A new
/// sequence is captured from a
/// replay of the same launch calls (cudaStreamBeginCapture), so its edges
/// are what the calls make them: a programmatic dependent launch becomes a
/// programmatic edge.
///
/// Anything else on the stream while recording (a copy, a wait, a
/// cooperative launch: flushLaunchRecording) first makes the recorded
/// launches, in order, and ends the recording, so the order is the
/// calls'. Dropped (abandon, on an error before the end): nothing
/// recorded runs.
///
/// When: the latency it saves is the host's time between the two launch
/// calls, which matters only where the producer ends before it (a short
/// producer); on a long one the graph cost about half a percent in the
/// runtime (the paper's channel reduction: 0.955-0.964x CUB, against
/// 0.964-0.968x in the same processes; bench/graph_cost_probe.cu does not
/// show it for the same pair written by hand). A producer of
/// at most one work-group per multiprocessor is taken as a short one; a
/// larger one is launched one call after the other, as before.
/// HPP_LAUNCH_GRAPH=1 submits every such launch as a graph, 0 none.
///
/// Only on CUDA 12.3 and later. HIP makes
/// its launches one call after the other: its graphs are not used until
/// they can be measured on an AMD GPU. Everything runs on the calling
/// host thread; the runtime's streams are process-wide and not meant for
/// launches from several host threads at once.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_LAUNCH_GRAPH_H
#define HPP_RUNTIME_LAUNCH_GRAPH_H

#include "hpp/check.h"
#include "hpp/core/config.h"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if defined(HPP_BACKEND_CUDA)
#include <cuda_runtime.h>
#endif

namespace hpp {
namespace detail {

#if defined(HPP_BACKEND_CUDA) && CUDART_VERSION >= 11080
/// Launches \p Func with cudaLaunchKernelExC; a programmatic dependent
/// launch with \p Programmatic (hpp/backend/gpu.h, programmaticLaunch).
inline void launchKernelEx(const void *Func, dim3 Grid, dim3 Block, void **Args,
                           std::size_t Shared, cudaStream_t Stream,
                           bool Programmatic) {
  cudaLaunchAttribute Attribute[1];
  Attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  Attribute[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t Config = {};
  Config.gridDim = Grid;
  Config.blockDim = Block;
  Config.dynamicSmemBytes = Shared;
  Config.stream = Stream;
  Config.attrs = Attribute;
  Config.numAttrs = Programmatic ? 1 : 0;
  HPP_CHECK(cudaLaunchKernelExC(&Config, Func, Args));
}
#endif

#if defined(HPP_BACKEND_CUDA) && CUDART_VERSION >= 12030

/// Whether a launch of \p Groups work-groups with after-launch work is
/// submitted as a graph with it: HPP_LAUNCH_GRAPH=1 always, 0 never;
/// otherwise when \p Groups is at most the device's multiprocessor count
/// (see the file comment).
inline bool launchGraphFor(std::size_t Groups) {
  static const int Mode = [] {
    const char *Env = std::getenv("HPP_LAUNCH_GRAPH");
    if (Env && std::string(Env) == "0")
      return 0;
    if (Env && std::string(Env) == "1")
      return 1;
    return 2;
  }();
  if (Mode != 2)
    return Mode == 1;
  static int Known[64]; // The multiprocessor count per device, + 1.
  int Device = 0;
  if (cudaGetDevice(&Device) != cudaSuccess || Device < 0 || Device >= 64) {
    (void)cudaGetLastError();
    return false;
  }
  if (!Known[Device]) {
    int SMs = 0;
    if (cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, Device) !=
        cudaSuccess)
      (void)cudaGetLastError();
    Known[Device] = SMs + 1;
  }
  return Groups <= std::size_t(Known[Device] - 1);
}

/// One launch, recorded instead of made: its arguments are copied.
struct RecordedLaunch {
  const void *Func;
  dim3 Grid, Block;
  std::size_t Shared;
  bool Programmatic;
  std::vector<unsigned char> Bytes;
  std::vector<std::size_t> Offsets, Sizes;
  std::vector<void *> Pointers;

  void **arguments() {
    Pointers.resize(Offsets.size());
    for (std::size_t I = 0; I < Offsets.size(); ++I)
      Pointers[I] = Bytes.data() + Offsets[I];
    return Pointers.data();
  }
  /// Makes the launch on \p Stream, as launchOnBackend would have.
  void make(cudaStream_t Stream) {
    launchKernelEx(Func, Grid, Block, arguments(), Shared, Stream,
                   Programmatic);
  }
  /// Whether \p Params (a node's) are this launch's kernel and arguments.
  bool sameAs(const cudaKernelNodeParams &Params) const {
    if (Params.func != Func || !Params.kernelParams)
      return false;
    for (std::size_t I = 0; I < Offsets.size(); ++I)
      if (std::memcmp(Params.kernelParams[I], Bytes.data() + Offsets[I],
                      Sizes[I]) != 0)
        return false;
    return true;
  }
};

/// The executable graphs kept for reuse (see the file comment).
class LaunchGraphCache {
public:
  static constexpr unsigned MaxKept = 32;

  static LaunchGraphCache &get() {
    // Never destroyed: the driver frees the graphs with the context, and
    // a static destructor could run after the CUDA runtime has gone.
    thread_local LaunchGraphCache *Cache = new LaunchGraphCache;
    return *Cache;
  }

  /// Launches \p Launches on \p Stream as one graph.
  void launch(std::vector<RecordedLaunch> &Launches, cudaStream_t Stream) {
    for (unsigned I = 0; I < Count; ++I)
      if (Kept[I].matches(Launches, Stream)) {
        if (Kept[I].update(Launches)) {
          HPP_CHECK(cudaGraphLaunch(Kept[I].Exec, Stream));
          return;
        }
        drop(I); // Could not take the new arguments: made anew.
        break;
      }
    if (Count == MaxKept) // The oldest goes; in flight, it completes.
      drop(0);
    Entry &E = Kept[Count];
    E = Entry{};
    E.Stream = Stream;
    E.capture(Launches); // Throws, leaving nothing kept, on an error.
    ++Count;
    HPP_CHECK(cudaGraphLaunch(E.Exec, Stream));
  }

private:
  struct Entry {
    cudaStream_t Stream = nullptr;
    std::vector<const void *> Funcs;
    std::vector<bool> Programmatic;
    cudaGraph_t Graph = nullptr;
    cudaGraphExec_t Exec = nullptr;
    std::vector<cudaGraphNode_t> Nodes; ///< in the launches' order

    bool matches(const std::vector<RecordedLaunch> &L, cudaStream_t S) const {
      if (S != Stream || L.size() != Funcs.size())
        return false;
      for (std::size_t I = 0; I < L.size(); ++I)
        if (L[I].Func != Funcs[I] || L[I].Programmatic != Programmatic[I])
          return false;
      return true;
    }
    bool update(std::vector<RecordedLaunch> &L) {
      for (std::size_t I = 0; I < L.size(); ++I) {
        cudaKernelNodeParams P = {};
        P.func = const_cast<void *>(L[I].Func);
        P.gridDim = L[I].Grid;
        P.blockDim = L[I].Block;
        P.sharedMemBytes = unsigned(L[I].Shared);
        P.kernelParams = L[I].arguments();
        if (cudaGraphExecKernelNodeSetParams(Exec, Nodes[I], &P) !=
            cudaSuccess) {
          (void)cudaGetLastError();
          return false;
        }
      }
      return true;
    }
    /// The graph of \p L, captured from their launch calls, instantiated.
    void capture(std::vector<RecordedLaunch> &L) {
      HPP_CHECK(
          cudaStreamBeginCapture(Stream, cudaStreamCaptureModeThreadLocal));
      try {
        for (RecordedLaunch &R : L)
          R.make(Stream);
      } catch (...) {
        cudaGraph_t G = nullptr;
        (void)cudaStreamEndCapture(Stream, &G);
        if (G)
          (void)cudaGraphDestroy(G);
        (void)cudaGetLastError();
        throw;
      }
      HPP_CHECK(cudaStreamEndCapture(Stream, &Graph));
      std::size_t N = 0;
      cudaError_t Err = cudaGraphGetNodes(Graph, nullptr, &N);
      std::vector<cudaGraphNode_t> All(N);
      if (Err == cudaSuccess)
        Err = cudaGraphGetNodes(Graph, All.data(), &N);
      // Each launch's node: its kernel and arguments (the first of equal
      // ones: interchangeable).
      for (std::size_t I = 0; Err == cudaSuccess && I < L.size(); ++I) {
        cudaGraphNode_t Found = nullptr;
        for (cudaGraphNode_t &Node : All) {
          cudaKernelNodeParams P = {};
          if (Node && cudaGraphKernelNodeGetParams(Node, &P) == cudaSuccess &&
              L[I].sameAs(P)) {
            Found = Node;
            Node = nullptr;
            break;
          }
        }
        if (!Found)
          Err = cudaErrorUnknown;
        Nodes.push_back(Found);
      }
      if (Err == cudaSuccess && N == L.size())
        Err = cudaGraphInstantiate(&Exec, Graph, 0);
      if (Err != cudaSuccess || N != L.size()) {
        (void)cudaGraphDestroy(Graph);
        HPP_CHECK(Err == cudaSuccess ? cudaErrorUnknown : Err);
      }
      for (const RecordedLaunch &R : L) {
        Funcs.push_back(R.Func);
        Programmatic.push_back(R.Programmatic);
      }
    }
  };

  void drop(unsigned I) {
    // An executable graph in flight is freed when it completes.
    (void)cudaGraphExecDestroy(Kept[I].Exec);
    (void)cudaGraphDestroy(Kept[I].Graph);
    for (unsigned J = I + 1; J < Count; ++J)
      Kept[J - 1] = std::move(Kept[J]);
    --Count;
  }

  Entry Kept[MaxKept];
  unsigned Count = 0;
};

/// The recording of one launch and the launches of its after-launch work
/// (see the file comment): begun by the constructor where it applies,
/// submitted by launch(), dropped by abandon() or the destructor.
class LaunchGraph {
public:
  LaunchGraph(void *Stream, bool Cooperative, std::size_t Groups) {
    if (!Stream || Cooperative || active() || !launchGraphFor(Groups))
      return;
    Recording = static_cast<cudaStream_t>(Stream);
    active() = this;
  }
  LaunchGraph(const LaunchGraph &) = delete;
  LaunchGraph &operator=(const LaunchGraph &) = delete;
  ~LaunchGraph() { abandon(); }

  /// The recording on this thread, if any.
  static LaunchGraph *recording() { return active(); }

  /// Records a launch of \p Func on the recorded stream (launchOnBackend);
  /// false when \p Stream is another one (the launch is made then, after
  /// what was recorded).
  bool record(const void *Func, dim3 Grid, dim3 Block, std::size_t Shared,
              bool Programmatic, void *const *Args, const std::size_t *Sizes,
              std::size_t N, void *Stream) {
    if (static_cast<cudaStream_t>(Stream) != Recording) {
      flush();
      return false;
    }
    RecordedLaunch R{Func, Grid, Block, Shared, Programmatic, {}, {}, {}, {}};
    std::size_t Total = 0;
    for (std::size_t I = 0; I < N; ++I) {
      const std::size_t Align = 16;
      Total = (Total + Align - 1) / Align * Align;
      R.Offsets.push_back(Total);
      R.Sizes.push_back(Sizes[I]);
      Total += Sizes[I];
    }
    R.Bytes.resize(Total);
    for (std::size_t I = 0; I < N; ++I)
      std::memcpy(R.Bytes.data() + R.Offsets[I], Args[I], Sizes[I]);
    Launches.push_back(std::move(R));
    return true;
  }

  /// Makes the recorded launches, one call after the other, and ends the
  /// recording (another operation on the stream comes next).
  void flush() {
    if (!Recording)
      return;
    const cudaStream_t S = stop();
    std::vector<RecordedLaunch> L = std::move(Launches);
    Launches.clear();
    for (RecordedLaunch &R : L)
      R.make(S);
  }

  /// Submits what was recorded: one launch as it was, several as a graph.
  void launch() {
    if (!Recording)
      return;
    if (Launches.size() < 2)
      return flush();
    const cudaStream_t S = stop();
    std::vector<RecordedLaunch> L = std::move(Launches);
    Launches.clear();
    LaunchGraphCache::get().launch(L, S);
  }

  /// Ends the recording and drops it: nothing it holds runs.
  void abandon() noexcept {
    if (!Recording)
      return;
    stop();
    Launches.clear();
  }

private:
  static LaunchGraph *&active() {
    thread_local LaunchGraph *On = nullptr;
    return On;
  }
  cudaStream_t stop() {
    const cudaStream_t S = Recording;
    Recording = nullptr;
    active() = nullptr;
    return S;
  }
  cudaStream_t Recording = nullptr;
  std::vector<RecordedLaunch> Launches;
};

#else

/// HIP, older CUDA and the CPU backend: the launch calls are made one
/// after the other (see the file comment).
class LaunchGraph {
public:
  LaunchGraph(void *, bool, std::size_t) {}
  LaunchGraph(const LaunchGraph &) = delete;
  LaunchGraph &operator=(const LaunchGraph &) = delete;
  static LaunchGraph *recording() { return nullptr; }
  template <class... T> bool record(T &&...) { return false; }
  void flush() {}
  void launch() {}
  void abandon() noexcept {}
};

#endif

/// Before an operation on a stream other than a kernel launch: the
/// launches recorded on this thread are made first (see the file comment).
inline void flushLaunchRecording() {
  if (LaunchGraph *G = LaunchGraph::recording())
    G->flush();
}

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_LAUNCH_GRAPH_H
