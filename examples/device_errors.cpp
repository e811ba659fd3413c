//===- examples/device_errors.cpp - Errors raised by device code ----------===//
//
// Part of hpp-rewrite. A self-checking dialect program.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Device code that misuses the dialect fails with the reference runtime's
/// hpp::RuntimeError, word for word, on a GPU as on the CPU: never a hang,
/// never a context that later launches cannot use. Cases:
///  - segment, segment-negative: a blocking parallelFor whose work-item
///    reads past the end (index 8) or before the start (index -1) of its
///    work-group's 8-element Segment: the parallelFor throws;
///  - barrier: a parallelFor whose work-item 5 returns without reaching (or
///    skipping) the Barrier of 64 that the 63 others wait at: a deadlock;
///  - barrier-partial: a Barrier of 64 in work-groups of 64 over 100
///    work-items: the 36 of the last group can never complete a phase (the
///    28 past the end of the range never run the body);
///  - consumer: the consumer of a channel a parallelFor writes indexes its
///    Segment out of range: the parallelFor that wrote the channel throws;
///  - task-barrier: the barrier case in a task: its future's wait() throws,
///    naming the enqueue;
///  - chain: two tasks enqueued one after the other behind it do not run;
///    each names the one it waited for and, past the first, the failure
///    at the start of the chain;
///  - join: a task enqueued after nine tasks joined with &&, one of which
///    failed, does not run;
///  - dropped: a failing task whose Future is destroyed without a wait: the
///    next parallelFor reports it;
///  - after: a parallelFor and a task after all of these run and compute
///    what they should.
/// Each case prints the message with every "FILE:LINE" of this file written
/// so, the same wherever it runs; with the argument `full` it prints them
/// with the directories removed instead (a rewritten source's #line
/// directives keep this file's name and lines: the same output too). The
/// program checks that each message names the calls and host lines.
///
/// Usage: device_errors [full]   (exit status 0 when every case failed or
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

/// "FILE:LINE" of this file (the source compiled).
static std::string here(int Line) {
  return std::string(__FILE__) + ":" + std::to_string(Line);
}

/// Checks that the error \p E of case \p Name contains each of \p Parts;
/// prints it and a verdict.
static void expect(const char *Name, const RuntimeError &E,
                   std::vector<std::string> Parts) {
  std::string Msg = E.what();
  std::printf("%s: caught: %s\n", Name, shown(Msg).c_str());
  Parts.push_back(std::string(__FILE__) + ":");
  for (const std::string &Part : Parts)
    if (Msg.find(Part) == std::string::npos) {
      std::printf("%s: MISMATCH: the message does not contain \"%s\"\n", Name,
                  shown(Part).c_str());
      ++Failures;
      return;
    }
  std::printf("%s: failed as expected, verified\n", Name);
}

/// Case \p Name should have thrown.
static void missed(const char *Name) {
  std::printf("%s: MISMATCH: no error\n", Name);
  ++Failures;
}

/// A blocking parallelFor over one work-group of 8 whose work-item
/// \p Culprit reads element \p Offset of its segment.
static void segmentCase(const char *Name, int Culprit, int Offset) {
  DistArray<int> darray;
  Region<int> region = darray.allocRegion(8);
  Pointer<int> Out = allocate<int>(8);
  try {
    parallelFor(Range<1, 1>(8, 8), darray,
                [=](Index<1, 1> i, BoundDistArray<int> a) __device(hpp) {
                  Segment<int> s = a(region);
                  int l = static_cast<int>(i.getLocalX());
                  s[l] = l;
                  s.barrier();
                  Out[l] = l == Culprit ? s[Offset] : s[l]; // [read]
                });
    missed(Name);
  } catch (const RuntimeError &E) {
    expect(Name, E,
           {"Segment::operator[] failed: index " + std::to_string(Offset) +
            " is out of range for a segment of 8 elements"});
  }
  deallocate(Out);
}

/// A task over one work-group of 64 whose work-item 5 returns without
/// reaching (or skipping) the barrier the other 63 wait at.
static Task<void, Index<1, 1>> stuckBarrierTask(Barrier &B) {
  return Task<void, Index<1, 1>>([=, &B](Index<1, 1> i) __device(hpp) {
    if (i.getLocalX() == 5)
      return; // leaves without B.skip()
    B.wait(); // [task-wait]
  });
}

int main(int argc, char **argv) {
  Full = argc > 1 && !std::strcmp(argv[1], "full");
  if (argc > 2 || (argc == 2 && !Full)) {
    std::fprintf(stderr, "usage: device_errors [full]\n");
    return 2;
  }

  segmentCase("segment", 7, 8);
  segmentCase("segment-negative", 3, -1);

  // barrier: work-item 5 leaves; the others wait for it forever.
  {
    const int BarrierLine = __builtin_LINE() + 1;
    Barrier B(64); // [barrier]
    Pointer<int> Out = allocate<int>(64);
    try {
      parallelFor(Range<1, 1>(64, 64), [=, &B](Index<1, 1> i) __device(hpp) {
        if (i.getLocalX() == 5)
          return; // leaves without B.skip()
        B.wait(); // [barrier-wait]
        Out[i.getX()] = 1;
      });
      missed("barrier");
    } catch (const RuntimeError &E) {
      expect("barrier", E,
             {"Barrier::wait failed: deadlock: work-items 0-4,6-63 wait "
              "(barrier of 64 participants created at " +
                  here(BarrierLine) +
                  ", phase 0: 63 arrived, 0 withdrew), and no work-item of "
                  "the work-group can arrive (exited: 5, work-group of 64)"});
    }
    deallocate(Out);
  }

  // barrier-partial: the last work-group has 36 work-items in the range.
  {
    Barrier B(64); // [partial]
    Pointer<int> Out = allocate<int>(100);
    try {
      parallelFor(Range<1, 1>(Range<1>(100), Range<1>(64)),
                  [=, &B](Index<1, 1> i) __device(hpp) {
                    B.wait(); // [partial-wait]
                    Out[i.getX()] = 1;
                  });
      missed("barrier-partial");
    } catch (const RuntimeError &E) {
      expect("barrier-partial", E,
             {"Barrier::wait failed: deadlock: work-items 0-35 wait",
              "phase 0: 36 arrived, 0 withdrew), and no work-item of the "
              "work-group can arrive (exited: none; past the end of the "
              "range (global size 100 is not a multiple of the work-group "
              "size 64), never running the body: 36-63, work-group of 64)"});
    }
    deallocate(Out);
  }

  // consumer: the batch's consumer reads one element past its segment.
  {
    DistArray<int> darray;
    Region<int> region = darray.allocRegion(8);
    Pointer<int> Out = allocate<int>(8);
    Channel<int> c(8);
    c.executeWith(
        [=](Channel<int> *c) -> bool __device(coord) { return c->size() >= 8; },
        Range<1, 1>(8, 8), darray,
        [=](Index<1, 1> i, std::vector<int> data, BoundDistArray<int> a)
            __device(hpp) {
          Segment<int> s = a(region);
          std::size_t l = i.getLocalX();
          s[l] = data[l];
          s.barrier();
          Out[l] = s[l] + s[l + 1]; // [consumer-read] 8 for work-item 7
        });
    try {
      parallelFor(Range<1>(8), [=, &c](Index<1> i) __device(hpp) {
        c.write(static_cast<int>(i));
      });
      missed("consumer");
    } catch (const RuntimeError &E) {
      expect("consumer", E,
             {"Segment::operator[] failed: index 8 is out of range for a "
              "segment of 8 elements"});
    }
    deallocate(Out);
  }

  // task-barrier, chain: the error comes out of wait(), naming the
  // enqueue; the tasks behind it do not run, each naming the one before
  // and the failure at the start of the chain (not nested).
  Barrier B(64); // [task]
  Task<void, Index<1, 1>> stuck = stuckBarrierTask(B);
  const int StuckLine = __builtin_LINE() + 1;
  Future<void> stuckFuture = stuck.enqueue(Range<1, 1>(64, 64));
  Pointer<int> Marks = allocate<int>(64);
  // Tasks may run at once (on a GPU, on different streams): atomically.
  Task<void, Index<1>> mark(
      [=](Index<1> i) __device(hpp) { atomicAdd(&Marks[i], 1); });
  const int SecondLine = __builtin_LINE() + 1;
  Future<void> second = mark.enqueue(Range<1>(64), stuckFuture);
  const int ThirdLine = __builtin_LINE() + 1;
  Future<void> third = mark.enqueue(Range<1>(64), second);
  try {
    stuckFuture.wait();
    missed("task-barrier");
  } catch (const RuntimeError &E) {
    expect("task-barrier", E,
           {"Barrier::wait failed: deadlock: work-items 0-4,6-63 wait",
            "(exited: 5, work-group of 64); in the task enqueued at " +
                here(StuckLine)});
  }
  try {
    third.wait();
    missed("chain");
  } catch (const RuntimeError &E) {
    expect("chain", E,
           {here(ThirdLine) + ": Task::enqueue failed: not run: the task it "
                              "waits for, enqueued at " +
                here(SecondLine) +
                ", did not run either; an earlier task it depends on, "
                "enqueued at " +
                here(StuckLine) + ", failed: ",
            "; in the task enqueued at " + here(StuckLine)});
  }

  // join: nine tasks of values, the fifth of them stuck; the task after
  // all of them does not run.
  {
    Barrier B2(64);
    Task<int, Index<1, 1>> stuck2([=, &B2](Index<1, 1> i) __device(hpp) {
      if (i.getLocalX() != 5) // 5 leaves without B2.skip()
        B2.wait();
      return 1;
    });
    Task<int, Index<1>> value([=](Index<1> i) __device(hpp) -> int {
      atomicAdd(&Marks[i], 1);
      return 1;
    });
    using F = Future<std::vector<int>>;
    F f0 = value.enqueue(Range<1>(64)), f1 = value.enqueue(Range<1>(64));
    F f2 = value.enqueue(Range<1>(64)), f3 = value.enqueue(Range<1>(64));
    const int FailedLine = __builtin_LINE() + 1;
    F f4 = stuck2.enqueue(Range<1, 1>(64, 64));
    F f5 = value.enqueue(Range<1>(64)), f6 = value.enqueue(Range<1>(64));
    F f7 = value.enqueue(Range<1>(64)), f8 = value.enqueue(Range<1>(64));
    auto all = f0 && f1 && f2 && f3 && f4 && f5 && f6 && f7 && f8;
    const int JoinLine = __builtin_LINE() + 1;
    Future<void> last = mark.enqueue(Range<1>(64), all);
    try {
      last.wait();
      missed("join");
    } catch (const RuntimeError &E) {
      expect("join", E,
             {here(JoinLine) + ": Task::enqueue failed: not run: the task "
                               "it waits for, enqueued at " +
              here(FailedLine) + ", failed: "});
    }
    try {
      all.wait();
      missed("join-wait");
    } catch (const RuntimeError &E) {
      expect("join-wait", E,
             {"; in the task enqueued at " + here(FailedLine)});
    }
  }
  int Marked = 0;
  for (int k = 0; k < 64; ++k)
    Marked += Marks[k];
  std::printf("marks: %d (8 tasks ran, the 3 after a failed one did not) %s\n",
              Marked, Marked == 8 * 64 ? "verified" : "MISMATCH");
  Failures += Marked != 8 * 64;

  // dropped: the failing task's future is destroyed without a wait; the
  // next parallelFor reports the error.
  Barrier B3(64);
  Task<void, Index<1, 1>> stuck3 = stuckBarrierTask(B3);
  const int DroppedLine = __builtin_LINE() + 2;
  {
    Future<void> dropped = stuck3.enqueue(Range<1, 1>(64, 64));
  }
  Pointer<int> Ones = allocate<int>(256);
  const int ParallelForLine = __builtin_LINE() + 2;
  try {
    parallelFor(Range<1>(256), [=](Index<1> i) __device(hpp) { Ones[i] = 1; });
    missed("dropped");
  } catch (const RuntimeError &E) {
    expect("dropped", E,
           {"Barrier::wait failed: deadlock",
            "; in the task enqueued at " + here(DroppedLine),
            "its Future was destroyed without wait() or get(); reported at "
            "the synchronising call at " +
                here(ParallelForLine)});
  }

  // after: the device still works. (The reporting parallelFor did not run
  // its body, on any runtime; overwritten all the same.)
  parallelFor(Range<1>(256), [=](Index<1> i) __device(hpp) { Ones[i] = 3; });
  Task<int, Index<1>> squares([=](Index<1> i) __device(hpp) -> int {
    return static_cast<int>(i) * static_cast<int>(i);
  });
  std::vector<int> Squares = squares.enqueue(Range<1>(256)).get();
  long long Sum = 0, SquareSum = 0;
  for (int k = 0; k < 256; ++k) {
    Sum += Ones[k];
    SquareSum += Squares[k] - k * k;
  }
  std::printf("after: parallelFor sum=%lld, task %s\n", Sum,
              Sum == 3 * 256 && SquareSum == 0 ? "verified" : "MISMATCH");
  Failures += Sum != 3 * 256 || SquareSum != 0;

  deallocate(Marks);
  deallocate(Ones);
  return Failures ? 1 : 0;
}
