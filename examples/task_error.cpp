//===- examples/task_error.cpp - Errors raised inside tasks ---------------===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What happens when a task's body fails. An hpp::RuntimeError raised in a
/// task (the reference runtime's report of a misused barrier, an index out
/// of range, ...) does not escape from enqueue, which returns at once: it
/// is rethrown by the wait() or get() of the task's future, worded to name
/// the line of the enqueue ("...; in the task enqueued at FILE:LINE"), so a
/// program with many tasks in flight knows which one failed. Cases:
///  - barrier: a Barrier of 64 participants that one work-item leaves
///    without skip(): the others can never be released (wait());
///  - segment: a task whose writes into a channel trigger a consumer that
///    indexes its work-group's Segment out of range: the consumer belongs
///    to the task, so its error comes out of the task's get();
///  - dependent: a task enqueued after the failed barrier task does not
///    run, and says which task it waited for;
///  - independent: a task enqueued after the failures, depending on none
///    of them, succeeds (its results are checked);
///  - dropped-then-parallelFor, dropped-then-wait: a failing task whose
///    Future is destroyed without wait(): its error is not lost but
///    reported at the next synchronising call, a parallelFor or the wait()
///    of another task's future, which the program catches.
/// For each failure the program prints the message and checks that it
/// names the right calls and lines. Every "FILE:LINE" of this file in it is
/// printed so: the output is the same on the CPU reference runtime and on
/// a GPU. With the argument `full` the messages are printed with the
/// directories removed instead (a rewritten source's #line directives keep
/// this file's name and lines, so that output is the same too).
///
/// Usage: task_error [full]   (exit status 0 when every task failed or
/// succeeded as expected)
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace hpp;

static int Failures = 0;
static bool Full = false;

/// \p Msg with this file's path shortened to its name (Full), or each
/// "PATH:LINE" of it written "FILE:LINE".
static std::string shown(std::string Msg) {
  const std::string Path = __FILE__;
  std::string Name = Full ? Path.substr(Path.find_last_of('/') + 1) : "FILE";
  for (std::size_t At = 0; (At = Msg.find(Path, At)) != std::string::npos;) {
    std::size_t End = At + Path.size();
    if (!Full && End < Msg.size() && Msg[End] == ':') {
      std::size_t Digits = End + 1;
      while (Digits < Msg.size() && std::isdigit((unsigned char)Msg[Digits]))
        ++Digits;
      if (Digits > End + 1) {
        Msg.replace(At, Digits - At, "FILE:LINE");
        At += 9;
        continue;
      }
    }
    Msg.replace(At, Path.size(), Name);
    At += Name.size();
  }
  return Msg;
}

/// "FILE:LINE" of this file.
static std::string here(int Line) {
  return std::string(__FILE__) + ":" + std::to_string(Line);
}

/// Checks that the error \p E of case \p Name contains each of \p Parts;
/// prints it and a verdict.
static void expect(const char *Name, const RuntimeError &E,
                   std::vector<std::string> Parts) {
  std::string Msg = E.what();
  std::printf("%s: caught: %s\n", Name, shown(Msg).c_str());
  for (const std::string &Part : Parts)
    if (Msg.find(Part) == std::string::npos) {
      std::printf("%s: MISMATCH: the message does not contain \"%s\"\n", Name,
                  shown(Part).c_str());
      ++Failures;
      return;
    }
  std::printf("%s: failed as expected, naming its enqueue verified\n", Name);
}

/// Case \p Name should have thrown.
static void missed(const char *Name) {
  std::printf("%s: MISMATCH: no error\n", Name);
  ++Failures;
}

/// A task over one work-group of 64 whose work-item 5 returns without
/// reaching (or skipping) the barrier the other 63 wait at.
static Task<void, Index<1, 1>> stuckBarrierTask(Barrier &B) {
  return Task<void, Index<1, 1>>([=, &B](Index<1, 1> i) __device(hpp) {
    if (i.getLocalX() == 5)
      return; // leaves without B.skip()
    B.wait();
  });
}

int main(int argc, char **argv) {
  Full = argc > 1 && !std::strcmp(argv[1], "full");
  if (argc > 2 || (argc == 2 && !Full)) {
    std::fprintf(stderr, "usage: task_error [full]\n");
    return 2;
  }
  // barrier: the error comes out of wait(), naming the enqueue's line.
  Barrier B(64);
  Task<void, Index<1, 1>> stuck = stuckBarrierTask(B);
  const int BarrierLine = __builtin_LINE() + 1;
  Future<void> barrierFuture = stuck.enqueue(Range<1, 1>(64, 64));
  // dependent: enqueued after the barrier task, so it never runs.
  Pointer<int> Marks = allocate<int>(64);
  Task<void, Index<1>> mark([=](Index<1> i) __device(hpp) { Marks[i] = 1; });
  const int DependentLine = __builtin_LINE() + 1;
  Future<void> dependentFuture = mark.enqueue(Range<1>(64), barrierFuture);
  try {
    barrierFuture.wait();
    missed("barrier");
  } catch (const RuntimeError &E) {
    expect("barrier", E,
           {"Barrier::wait failed: deadlock",
            "; in the task enqueued at " + here(BarrierLine)});
  }
  try {
    dependentFuture.wait();
    missed("dependent");
  } catch (const RuntimeError &E) {
    expect("dependent", E,
           {here(DependentLine) + ": Task::enqueue failed: not run: the "
                                  "task it waits for, enqueued at " +
                here(BarrierLine) + ", failed:"});
  }
  int Marked = 0;
  for (int k = 0; k < 64; ++k)
    Marked += Marks[k];
  if (Marked != 0) {
    std::printf("dependent: MISMATCH: the task ran (%d marks)\n", Marked);
    ++Failures;
  }

  // segment: a task writes 8 values into a channel; the batch's consumer
  // reads one element past the end of its work-group's Segment.
  {
    DistArray<int> darray;
    Region<int> region = darray.allocRegion(8);
    Pointer<int> Out = allocate<int>(8);
    Channel<int> c(8);
    c.executeWith(
        [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 8; },
        Range<1, 1>(8, 8), darray,
        [=](Index<1, 1> i, std::vector<int> data, BoundDistArray<int> a)
            __device(hpp) {
          Segment<int> s = a(region);
          std::size_t l = i.getLocalX();
          s[l] = data[l];
          s.barrier();
          Out[l] = s[l] + s[l + 1]; // element 8 for work-item 7
        });
    Task<int, Index<1>> writer([=, &c](Index<1> i) __device(hpp) -> int {
      c.write(static_cast<int>(i));
      return static_cast<int>(i);
    });
    const int SegmentLine = __builtin_LINE() + 1;
    Future<std::vector<int>> segmentFuture = writer.enqueue(Range<1>(8));
    try {
      std::vector<int> Values = segmentFuture.get();
      missed("segment");
    } catch (const RuntimeError &E) {
      expect("segment", E,
             {"Segment::operator[] failed: index 8 is out of range for a "
              "segment of 8 elements",
              "; in the task enqueued at " + here(SegmentLine)});
    }
    deallocate(Out);
  }

  // independent: depends on none of the failures, and runs.
  Pointer<int> In = allocate<int>(1000);
  for (int k = 0; k < 1000; ++k)
    In[k] = k % 37 - 18;
  Task<int, Index<1>> squares(
      [=](Index<1> i) __device(hpp) -> int { return In[i] * In[i]; });
  Future<std::vector<int>> squaresFuture = squares.enqueue(Range<1>(1000));
  {
    std::vector<int> Got = squaresFuture.get();
    long long Sum = 0;
    bool Ok = Got.size() == 1000;
    for (int k = 0; Ok && k < 1000; ++k) {
      Ok = Got[k] == In[k] * In[k];
      Sum += Got[k];
    }
    if (Ok) {
      std::printf("independent: n=1000 sum=%lld verified\n", Sum);
    } else {
      std::printf("independent: MISMATCH\n");
      ++Failures;
    }
  }

  // dropped-then-parallelFor: the failing task's future is destroyed
  // without a wait; the next parallelFor reports the error.
  Barrier B2(64);
  Task<void, Index<1, 1>> stuck2 = stuckBarrierTask(B2);
  const int DroppedLine = __builtin_LINE() + 2;
  {
    Future<void> dropped = stuck2.enqueue(Range<1, 1>(64, 64));
  }
  Pointer<int> Ones = allocate<int>(256);
  const int ParallelForLine = __builtin_LINE() + 2;
  try {
    parallelFor(Range<1>(256), [=](Index<1> i) __device(hpp) { Ones[i] = 1; });
    missed("dropped-then-parallelFor");
  } catch (const RuntimeError &E) {
    expect("dropped-then-parallelFor", E,
           {"Barrier::wait failed: deadlock",
            "; in the task enqueued at " + here(DroppedLine),
            "its Future was destroyed without wait() or get(); reported at "
            "the synchronising call at " +
                here(ParallelForLine)});
  }
  // The error has been reported, once: the next parallelFor runs normally.
  parallelFor(Range<1>(256), [=](Index<1> i) __device(hpp) { Ones[i] = 1; });
  int Count = 0;
  for (int k = 0; k < 256; ++k)
    Count += Ones[k];
  std::printf("after-report: parallelFor n=256 sum=%d %s\n", Count,
              Count == 256 ? "verified" : "MISMATCH");
  Failures += Count != 256;

  // dropped-then-wait: the error comes out of the wait() of another,
  // healthy task's future; that task's results are still there.
  Barrier B3(64);
  Task<void, Index<1, 1>> stuck3 = stuckBarrierTask(B3);
  const int Dropped2Line = __builtin_LINE() + 2;
  {
    Future<void> dropped = stuck3.enqueue(Range<1, 1>(64, 64));
  }
  Future<std::vector<int>> healthy = squares.enqueue(Range<1>(1000));
  const int WaitLine = __builtin_LINE() + 2;
  try {
    healthy.wait();
    missed("dropped-then-wait");
  } catch (const RuntimeError &E) {
    expect("dropped-then-wait", E,
           {"; in the task enqueued at " + here(Dropped2Line),
            "reported at the synchronising call at " + here(WaitLine)});
  }
  {
    std::vector<int> Got = healthy.get();
    bool Ok = Got.size() == 1000;
    for (int k = 0; Ok && k < 1000; ++k)
      Ok = Got[k] == In[k] * In[k];
    std::printf("healthy: n=1000 %s\n", Ok ? "verified" : "MISMATCH");
    Failures += !Ok;
  }

  deallocate(Marks);
  deallocate(In);
  deallocate(Ones);
  return Failures ? 1 : 0;
}
