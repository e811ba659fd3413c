//===- orphan_then_parallel_for.cpp - A dropped failed task, then a launch ===//
//
// Part of hpp-rewrite. A self-checking dialect program; input of
// test/runtime/orphan-then-parallel-for.test, and run on a GPU by hand
// (the test's comment says how).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// docs/dialect.md, "Errors in tasks": the error of a task whose every
/// Future was destroyed before anyone waited is reported at the next
/// synchronising call, and a parallelFor that reports it "throws it
/// instead of running its own launch". A sum counts the work-items that
/// ran, so that a parallelFor that launched anyway shows:
///  - before: a parallelFor of 1000 work-items adds 1000;
///  - dropped-fails: a task over one work-group of 64 whose work-item 5
///    returns without reaching the Barrier the 63 others wait at (a
///    deadlock, raised on the device on a GPU); its future is dropped; the
///    next parallelFor (5000 work-items) throws that error, naming the
///    enqueue and itself, and adds nothing;
///  - after-report: the error was reported once; a parallelFor of 500
///    runs;
///  - dropped-succeeds: a task of 100 work-items that succeeds, its future
///    dropped: the next parallelFor (400) runs, after it;
///  - dropped-chain: a failed task with a task enqueued after it, both
///    futures dropped: the next parallelFor (300) reports the failure
///    once and adds nothing.
/// Expected total: 1000 + 500 + 100 + 400 = 2000 (6000 and more if a
/// reporting parallelFor launched). Every "FILE:LINE" of this file in a
/// message is printed so: the same output on the reference runtime, the
/// CPU backend and a GPU.
///
/// Usage: orphan_then_parallel_for   (exit status 0 when every case
/// behaved as expected)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

using namespace hpp;

static int Failures = 0;

/// \p Msg with each "PATH:LINE" of this file written "FILE:LINE".
static std::string shown(std::string Msg) {
  const std::string Path = __FILE__;
  for (std::size_t At = 0; (At = Msg.find(Path, At)) != std::string::npos;) {
    std::size_t End = At + Path.size();
    if (End < Msg.size() && Msg[End] == ':')
      while (++End < Msg.size() && std::isdigit((unsigned char)Msg[End]))
        ;
    Msg.replace(At, End - At, "FILE:LINE");
    At += 9;
  }
  return Msg;
}

/// "PATH:LINE" of this file.
static std::string here(int Line) {
  return std::string(__FILE__) + ":" + std::to_string(Line);
}

/// Checks that \p E contains each of \p Parts; prints it and a verdict.
static void expect(const char *Name, const RuntimeError &E,
                   const std::vector<std::string> &Parts) {
  const std::string Msg = E.what();
  std::printf("%s: caught: %s\n", Name, shown(Msg).c_str());
  for (const std::string &Part : Parts)
    if (Msg.find(Part) == std::string::npos) {
      std::printf("%s: MISMATCH: the message does not contain \"%s\"\n", Name,
                  shown(Part).c_str());
      ++Failures;
      return;
    }
  std::printf("%s: failed as expected, verified\n", Name);
}

/// Prints the sum after case \p Name and whether it is \p Want.
static void checkSum(const char *Name, Pointer<int> Sum, int Want) {
  std::printf("%s: sum=%d %s\n", Name, Sum[0],
              Sum[0] == Want ? "verified" : "MISMATCH");
  Failures += Sum[0] != Want;
}

/// A task over one work-group of 64 whose work-item 5 returns without
/// reaching (or skipping) the barrier that the other 63 wait at.
static Task<void, Index<1, 1>> stuckTask(Barrier &B) {
  return Task<void, Index<1, 1>>([=, &B](Index<1, 1> i) __device(hpp) {
    if (i.getLocalX() == 5)
      return; // leaves without B.skip()
    B.wait();
  });
}

int main() {
  Pointer<int> Sum = allocate<int>(1);
  Sum[0] = 0;

  // before
  parallelFor(Range<1>(1000),
              [=](Index<1> i) __device(hpp) { atomicAdd(&Sum[0], 1); });
  checkSum("before", Sum, 1000);

  // dropped-fails
  Barrier B(64);
  Task<void, Index<1, 1>> stuck = stuckTask(B);
  const int DroppedLine = __builtin_LINE() + 2;
  {
    Future<void> dropped = stuck.enqueue(Range<1, 1>(64, 64));
  }
  const int ReportLine = __builtin_LINE() + 2;
  try {
    parallelFor(Range<1>(5000),
                [=](Index<1> i) __device(hpp) { atomicAdd(&Sum[0], 1); });
    std::printf("dropped-fails: MISMATCH: no error\n");
    ++Failures;
  } catch (const RuntimeError &E) {
    expect("dropped-fails", E,
           {"Barrier::wait failed: deadlock",
            "; in the task enqueued at " + here(DroppedLine),
            "(its Future was destroyed without wait() or get(); reported at "
            "the synchronising call at " +
                here(ReportLine) + ")"});
  }
  checkSum("dropped-fails", Sum, 1000);

  // after-report
  parallelFor(Range<1>(500),
              [=](Index<1> i) __device(hpp) { atomicAdd(&Sum[0], 1); });
  checkSum("after-report", Sum, 1500);

  // dropped-succeeds
  Task<void, Index<1>> add([=](Index<1> i) __device(hpp) {
    atomicAdd(&Sum[0], 1);
  });
  {
    Future<void> dropped = add.enqueue(Range<1>(100));
  }
  parallelFor(Range<1>(400),
              [=](Index<1> i) __device(hpp) { atomicAdd(&Sum[0], 1); });
  checkSum("dropped-succeeds", Sum, 2000);

  // dropped-chain
  Barrier B2(64);
  Task<void, Index<1, 1>> stuck2 = stuckTask(B2);
  const int ChainLine = __builtin_LINE() + 2;
  {
    Future<void> first = stuck2.enqueue(Range<1, 1>(64, 64));
    Future<void> second = add.enqueue(Range<1>(100), first);
  }
  const int ChainReportLine = __builtin_LINE() + 2;
  try {
    parallelFor(Range<1>(300),
                [=](Index<1> i) __device(hpp) { atomicAdd(&Sum[0], 1); });
    std::printf("dropped-chain: MISMATCH: no error\n");
    ++Failures;
  } catch (const RuntimeError &E) {
    expect("dropped-chain", E,
           {"enqueued at " + here(ChainLine),
            "reported at the synchronising call at " +
                here(ChainReportLine)});
  }
  checkSum("dropped-chain", Sum, 2000);

  deallocate(Sum);
  std::printf("%s\n", Failures ? "FAILED" : "all verified");
  return Failures ? 1 : 0;
}
