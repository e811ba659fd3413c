//===- test/runtime/Inputs/caller_lines.cpp - Errors at the user's line ---===//
//
// Part of hpp-rewrite. Input of caller-lines.test.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every kind of misuse the CPU reference runtime (include/hpp) reports, one
/// per mode: caller_lines MODE runs it and prints "MODE: error: what()" for
/// the hpp::RuntimeError (exit 1), or "MODE: no error" (exit 0). The
/// expected message of each is a FileCheck directive of this file, on the
/// line above the misuse: [[@LINE+1]] is the line the error must name, the
/// user's call, never a line of the runtime's headers. caller-lines.test
/// runs each mode with this file as the check file and the mode's prefix.
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

using namespace hpp;

namespace {

const char *Mode = "";
bool is(const char *Name) { return !std::strcmp(Mode, Name); }

/// Launch configurations that no GPU accepts.
void launches() {
  if (is("local0"))
    // LOCAL0: local0: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: parallelFor failed: work-group size is 0 along dimension 0
    parallelFor(Range<1, 1>(100, 0), [=](Index<1, 1>) __device(hpp) {});
  if (is("group-too-big"))
    // BIG: group-too-big: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: parallelFor failed: work-group of 2048 work-items exceeds the limit of 1024
    parallelFor(Range<2, 2>(Range<2>(64, 64), Range<2>(64, 32)),
                [=](Index<2, 2>) __device(hpp) {});
  if (is("dist-too-big")) {
    DistArray<int> d;
    Region<int> r = d.allocRegion(2048);
    // DISTBIG: dist-too-big: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: parallelFor failed: work-group of 2048 work-items exceeds the limit of 1024
    parallelFor(Range<1, 1>(d.getTotalSize(), Range<1>(r.getSize())), d,
                [=](Index<1, 1>, BoundDistArray<int>) __device(hpp) {});
  }
  // A launch that reads every setting (caller-lines.test sets them).
  if (is("settings"))
    // SETTINGS: settings: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: {{.*}}
    parallelFor(Range<1>(10), [=](Index<1>) __device(hpp) {});
  // The width in host code.
  if (is("mvector-size"))
    // MVSIZE: mvector-size: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: HPP_CPU_MVECTOR=48 failed: the simulated mvector width must be 32 or 64
    std::printf("width %d\n", MVECTOR_SIZE);
}

/// allocate, DistArray and Segment.
void memory() {
  if (is("alloc-overflow"))
    // OVERFLOW: alloc-overflow: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: allocate<T>(4611686018427387903) failed: size overflows std::size_t
    allocate<double>(SIZE_MAX / 4);
  if (is("alloc-oom"))
    // OOM: alloc-oom: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: allocate<T>(9223372036854775807) failed: out of memory
    allocate<char>(SIZE_MAX / 2);
  DistArray<int> d;
  if (is("region-zero"))
    // REGIONZERO: region-zero: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: DistArray::allocRegion failed: a region needs at least one element
    d.allocRegion(0);
  if (is("region-limit"))
    // REGIONLIMIT: region-limit: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: DistArray::allocRegion failed: a region of 20000 elements of 4 bytes at byte offset 0 does not fit in the 49152 bytes of memory of a work-group (HPP_CPU_GROUP_MEMORY); a region allocated now can have at most 12288 elements
    d.allocRegion(20000);
  if (is("group-memory"))
    // GROUPMEMORY: group-memory: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: HPP_CPU_GROUP_MEMORY=0 failed: the memory of a work-group must be an integer number of bytes from 1 to 1073741824
    std::printf("max %zu\n", d.getMaxRegionSize());
  if (!is("segment-index") && !is("region-foreign"))
    return;
  Region<int> r = d.allocRegion(32);
  DistArray<int> other;
  Region<int> foreign = other.allocRegion(4);
  const bool Foreign = is("region-foreign");
  parallelFor(Range<1, 1>(32, 32), d,
              [=](Index<1, 1> i, BoundDistArray<int> a) __device(hpp) {
                if (Foreign)
                  // FOREIGN: region-foreign: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: BoundDistArray::operator() failed: the region (4 elements) belongs to another DistArray than the one the launch binds
                  a(foreign);
                Segment<int> s = a(r);
                // SEGMENT: segment-index: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: Segment::operator[] failed: index 32 is out of range for a segment of 32 elements
                s[i.getLocalX() + 1] = 0;
              });
}

/// Barrier, __gpu_sync and the work-item functions.
void barriers() {
  if (is("barrier-zero"))
    // BARRIERZERO: barrier-zero: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: hpp::Barrier failed: a barrier needs at least one participant
    Barrier b(0);
  Barrier b(64);
  if (is("barrier-host"))
    // BARRIERHOST: barrier-host: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: Barrier::wait failed: a barrier is used in device code only
    b.wait();
  if (is("gpu-sync-host"))
    // GPUSYNCHOST: gpu-sync-host: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: __gpu_sync failed: a barrier is used in device code only
    __gpu_sync();
  if (is("work-item-host"))
    // WORKITEM: work-item-host: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: get_global_id failed: called outside a parallelFor body: it names the calling work-item
    std::printf("id %zu\n", get_global_id(0));
  if (is("barrier-rejoin"))
    parallelFor(Range<1, 1>(64, 64), [=, &b](Index<1, 1>) __device(hpp) {
      b.skip();
      // REJOIN: barrier-rejoin: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: Barrier::wait failed: work-item 0 withdrew from the barrier created at {{.*}}caller_lines.cpp:{{[0-9]+}} (skip) and cannot take part again
      b.wait();
    });
  if (is("barrier-deadlock"))
    parallelFor(Range<1, 1>(64, 64), [=, &b](Index<1, 1> i) __device(hpp) {
      if (i.getLocalX() != 5)
        // DEADLOCK: barrier-deadlock: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: Barrier::wait failed: deadlock: work-items 0-4,6-63 wait {{.*}}
        b.wait();
    });
}

/// Warp collectives.
void warps() {
  if (is("warp-host"))
    // WARPHOST: warp-host: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: __shfl_sync failed: warp operation called outside device code
    __shfl_sync(0xffffffffu, 1, 0);
  if (is("warp-mask"))
    parallelFor(Range<1, 1>(64, 64), [=](Index<1, 1> i) __device(hpp) {
      // WARPMASK: warp-mask: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: __ballot_sync failed: lane 1 is not in its mask 0x1 {{.*}}
      __ballot_sync(1u, int(i.getLocalX()));
    });
  // Lanes that returned from the body before the collective.
  if (is("warp-returned"))
    parallelFor(Range<1, 1>(64, 64), [=](Index<1, 1> i) __device(hpp) {
      if (i.getLocalX() % 32 >= 16)
        return;
      // RETURNED: warp-returned: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: __shfl_sync failed: divergent mvector collective in mvector 0 (width {{32|64}}): reached by lanes 0-15 only; lanes 16-31 exited; every active lane must take part (AMD rule)
      __shfl_sync(0xffffffffu, int(i), 0);
    });
}

/// Warp collectives in the last, partial work-group: its trailing
/// work-items are past the end of the range and never run the body.
void partialGroups() {
  if (is("past-end"))
    parallelFor(Range<1, 1>(20, MVECTOR_SIZE), [=](Index<1, 1> i) __device(hpp) {
      // PAST32: past-end: error: {{.*}}caller_lines.cpp:[[@LINE+2]]: __shfl_sync failed: incomplete mvector collective in mvector 0 (width 32): reached by lanes 0-19 only; lanes 20-31 of this mvector are past the end of the range (global size 20 is not a multiple of the work-group size 32): they never run the body; launch a global size rounded up to a multiple of the work-group size and guard the work, not the collective, with the real size (e.g. i < n), so that every lane reaches it
      // PAST64: past-end: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: __shfl_sync failed: incomplete mvector collective in mvector 0 (width 64): reached by lanes 0-19 only; lanes 20-31 of this mvector are past the end of the range (global size 20 is not a multiple of the work-group size 64): they never run the body; launch a global size rounded up to a multiple of the work-group size and guard the work, not the collective, with the real size (e.g. i < n), so that every lane reaches it
      __shfl_sync(0xffffffffu, int(i), 0);
    });
  // Groups of 64 over 100 work-items: the second group runs 36.
  if (is("ballot-past-end"))
    parallelFor(Range<1, 1>(100, 64), [=](Index<1, 1> i) __device(hpp) {
      // BALLOT32: ballot-past-end: error: {{.*}}caller_lines.cpp:[[@LINE+2]]: __ballot_sync failed: incomplete mvector collective in mvector 1 (width 32): reached by lanes 0-3 only; lanes 4-31 of this mvector are past the end of the range (global size 100 is not a multiple of the work-group size 64): they never run the body; launch {{.*}}
      // BALLOT64: ballot-past-end: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: __ballot_sync failed: incomplete mvector collective in mvector 0 (width 64): reached by lanes 0-35 only; lanes 36-63 of this mvector are past the end of the range (global size 100 is not a multiple of the work-group size 64): they never run the body; launch {{.*}}
      (void)__ballot_sync(~0ull, int(i) % 3 == 0);
    });
  // Lanes that returned and lanes past the end, in 2-D.
  if (is("mixed-past-end"))
    parallelFor(Range<2, 2>(Range<2>(20, 2), Range<2>(32, 1)),
                [=](Index<2, 2> i) __device(hpp) {
                  if (i.getLocalX() == 3)
                    return;
                  // MIXED: mixed-past-end: error: {{.*}}caller_lines.cpp:[[@LINE+1]]: __any_sync failed: incomplete mvector collective in mvector 0 (width {{32|64}}): reached by lanes 0-2,4-19 only; lane 3 exited, and lanes 20-31 of this mvector are past the end of the range (global size 20x2 is not a multiple of the work-group size 32x1): they never run the body; launch {{.*}}
                  (void)__any_sync(0xffffffffu, 1);
                });
  // What stays allowed: __activemask, and a partial group whose
  // collectives guard nothing (the range is rounded up; the work is
  // guarded).
  if (is("past-end-ok")) {
    Pointer<int> Out = allocate<int>(1);
    const std::size_t n = 20;
    parallelFor(Range<1, 1>(20, MVECTOR_SIZE), [=](Index<1, 1> i) __device(hpp) {
      const unsigned Active = __activemask();
      if (i.getLocalX() == 0)
        Out[0] = __popc(Active);
    });
    std::printf("active=%d", Out[0]);
    parallelFor(Range<1, 1>(MVECTOR_SIZE, MVECTOR_SIZE),
                [=](Index<1, 1> i) __device(hpp) {
                  int v = i < n ? int(i) : 0;
                  for (int d = 16; d > 0; d /= 2)
                    v += __shfl_down_sync(0xffffffffu, v, d);
                  if (i == 0)
                    Out[0] = v;
                });
    std::printf(" sum=%d\n", Out[0]);
    deallocate(Out);
  }
}

} // namespace

int main(int argc, char **argv) {
  Mode = argc > 1 ? argv[1] : "";
  try {
    launches();
    memory();
    barriers();
    warps();
    partialGroups();
  } catch (const RuntimeError &E) {
    std::printf("%s: error: %s\n", Mode, E.what());
    return 1;
  }
  std::printf("%s: no error\n", Mode);
  return 0;
}
