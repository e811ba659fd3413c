//===- test/runtime/Inputs/task_long_chain.cpp - Long chains of tasks ----===//
//
// Part of hpp-rewrite. Input of task-long-chain.test.
//
//===----------------------------------------------------------------------===//
//
// Long chains of tasks, each enqueued after the one before, in the form
// hpp-rewrite emits (its output for the dialect program, #line directives
// left out). Each part prints one line ending in "verified" or "MISMATCH":
//  - chain: K tasks that each count once; the last future's wait() comes
//    after all of them. A work keeps the works it waits for until it
//    completes, so the last one holds the whole chain: letting go of it
//    must not recurse (a chain of 20,000 crashed the GPU backend before);
//  - failing (5 tasks, the third stuck at a barrier): the message of the
//    last one names the task before it and the failure at the start of
//    the chain, not nested;
//  - failing (K tasks, stuck in the middle): the half after the failure
//    does not run, the error comes out of the last wait(), short (it was
//    nested once per task, so building it took quadratic time, and on a
//    GPU finding it recursed once per task).
//
// Usage: task_long_chain [tasks]   (default 20000, at least 4)
//
//===----------------------------------------------------------------------===//
#include <hpp/runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace hpp;

/// \p Msg with every path of this file cut to its name.
static std::string shown(std::string Msg) {
  const std::string Path = __FILE__;
  const std::string Name = Path.substr(Path.find_last_of('/') + 1);
  for (std::size_t At = 0; (At = Msg.find(Path, At)) != std::string::npos;
       At += Name.size())
    Msg.replace(At, Path.size(), Name);
  return Msg;
}

/// Outlined by hpp-rewrite from the Task at task_long_chain.cpp:21:10.
__global__ void hpp_countingTask_task0(hpp::Range<1, 1> hpp_range,
                                       hpp::detail::TaskResult<void> hpp_result,
                                       const hpp::Pointer<int> Count) {
  if (!hpp_result.runs())
    return;
  hpp::Index<1, 1> i(hpp::detail::kernelIndex(hpp_range).fields());
  if (!i.inGlobalRange())
    return;
  {
    if (i.getX() == 0)
      Count[0] += 1;
  }
}

/// A task whose work-item 0 adds one to Count[0].
static Task<void, Index<1, 1>> countingTask(Pointer<int> Count) {
  return Task<void, Index<1, 1>>(
      hpp::detail::taskKernel(hpp_countingTask_task0, Count));
}

/// K tasks, each enqueued after the one before; the last one waited for.
static bool chain(Pointer<int> Count, long K) {
  Count[0] = 0;
  Task<void, Index<1, 1>> step = countingTask(Count);
  Future<void> f = step.enqueue(Range<1, 1>(32, 32));
  for (long k = 1; k < K; ++k)
    f = step.enqueue(Range<1, 1>(32, 32), f);
  f.wait();
  const bool Ok = Count[0] == K;
  std::printf("chain tasks=%ld count=%d %s\n", K, Count[0],
              Ok ? "verified" : "MISMATCH");
  return Ok;
}

/// Outlined by hpp-rewrite from the Task at task_long_chain.cpp:48:27.
__global__ void hpp_failing_task0(hpp::Range<1, 1> hpp_range,
                                  hpp::detail::TaskResult<void> hpp_result,
                                  hpp::Barrier B) {
  if (!hpp_result.runs())
    return;
  __shared__ hpp::detail::BlockBarrierStorage hpp_barrier_B;
  B.attach(hpp_barrier_B);
  hpp::detail::BarrierExitGuard hpp_barrier_exit;
  hpp::Index<1, 1> i(hpp::detail::kernelIndex(hpp_range).fields());
  if (!i.inGlobalRange())
    return;
  {
    if (i.getLocalX() == 5)
      return; // leaves without B.skip()
    B.wait();
  }
}

/// The same chain with, at position Bad, a task whose barrier can never
/// complete: the tasks after it do not run, and the last future's wait()
/// reports the failure (printed when \p Print).
static bool failing(Pointer<int> Count, long K, long Bad, bool Print) {
  Count[0] = 0;
  Barrier B(64);
  Task<void, Index<1, 1>> step = countingTask(Count);
  Task<void, Index<1, 1>> stuck(hpp::detail::taskKernel(hpp_failing_task0, B));
  Future<void> f = step.enqueue(Range<1, 1>(32, 32));
  for (long k = 1; k < K; ++k) {
    // One enqueue a line: a call's line is where its statement starts.
    if (k == Bad)
      f = stuck.enqueue(Range<1, 1>(64, 64), f);
    else
      f = step.enqueue(Range<1, 1>(32, 32), f);
  }
  std::string Caught;
  try {
    f.wait();
  } catch (const RuntimeError &E) {
    Caught = E.what();
  }
  if (Print)
    std::printf("%s\n", shown(Caught).c_str());
  const bool Ok =
      Count[0] == Bad &&
      Caught.find("Barrier::wait failed: deadlock") != std::string::npos &&
      Caught.size() < 1000;
  std::printf("failing tasks=%ld bad=%ld ran=%d error=%s length=%s %s\n", K,
              Bad, Count[0], Caught.empty() ? "none" : "caught",
              Caught.size() < 1000 ? "short" : "long",
              Ok ? "verified" : "MISMATCH");
  return Ok;
}

int main(int argc, char **argv) {
  const long K = argc > 1 ? std::atol(argv[1]) : 20000;
  if (K < 4 || argc > 2) {
    std::fprintf(stderr, "usage: task_long_chain [tasks >= 4]\n");
    return 2;
  }
  Pointer<int> Count = allocate<int>(1);
  bool Ok = chain(Count, K);
  Ok = failing(Count, 5, 2, true) && Ok;
  Ok = failing(Count, K, K / 2, false) && Ok;
  deallocate(Count);
  return Ok ? 0 : 1;
}
