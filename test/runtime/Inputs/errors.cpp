// Failing launches and allocations, in the generated-code shape: each must
// throw hpp::RuntimeError with the failing call, file, line and the
// backend's message. Usage: errors MODE, MODE one of local0, bigblock,
// fill (no error), hugealloc, overflow, barrier0, region0, throw and
// work-item (CPU backend
// only). Prints the error's fields and exits 1 when the expected
// RuntimeError arrives. The calls the program makes itself (allocate,
// Barrier, allocRegion, get_global_id) report this file's line: the line of
// the call is marked "LINE: MODE" for errors.test.
#include <hpp/runtime.h>
using namespace hpp;

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>

/// Outlined by hpp-rewrite from the parallelFor at errors.cpp:10:3.
__global__ void hpp_fill_pfor0(hpp::Range<1, 1> hpp_range,
                               const hpp::Pointer<int> out) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  { out[i.getX()] = 1; }
}

#if defined(HPP_BACKEND_CPU)
/// Only the CPU backend lets a kernel throw; the launch rethrows it.
__global__ void hpp_throws_pfor0(hpp::Range<1> hpp_range) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    if (i.getX() == 777)
      throw std::runtime_error("work-item 777 threw");
  }
}
#endif

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "";
  try {
    if (!std::strcmp(Mode, "local0")) {
      Pointer<int> out = allocate<int>(100);
      hpp::launchKernel(hpp_fill_pfor0, // LINE: local0
                        Range<1, 1>(Range<1>(100), Range<1>(0)), out);
    } else if (!std::strcmp(Mode, "bigblock")) {
      Pointer<int> out = allocate<int>(4096);
      hpp::launchKernel(hpp_fill_pfor0, // LINE: bigblock
                        Range<1, 1>(Range<1>(4096), Range<1>(2048)), out);
    } else if (!std::strcmp(Mode, "fill")) {
      Pointer<int> out = allocate<int>(100);
      hpp::launchKernel(hpp_fill_pfor0, // LINE: fill
                        Range<1, 1>(Range<1>(100), Range<1>(64)), out);
      std::printf("filled %d\n", out[99]);
    } else if (!std::strcmp(Mode, "hugealloc")) {
      Pointer<double> p = allocate<double>(std::size_t(1) << 60); // LINE: hugealloc
      std::printf("allocated %p\n", static_cast<void *>(p.get()));
    } else if (!std::strcmp(Mode, "overflow")) {
      Pointer<double> p = allocate<double>(SIZE_MAX / 4); // LINE: overflow
      std::printf("allocated %p\n", static_cast<void *>(p.get()));
    } else if (!std::strcmp(Mode, "barrier0")) {
      Barrier b(0); // LINE: barrier0
    } else if (!std::strcmp(Mode, "region0")) {
      DistArray<int> d;
      d.allocRegion(0); // LINE: region0
#if defined(HPP_BACKEND_CPU)
    } else if (!std::strcmp(Mode, "throw")) {
      hpp::launchKernel(hpp_throws_pfor0, Range<1>(1000));
    } else if (!std::strcmp(Mode, "work-item")) {
      std::printf("id %zu\n", hpp::get_global_id(0)); // LINE: work-item
#endif
    } else {
      std::printf("unknown mode '%s'\n", Mode);
      return 2;
    }
  } catch (const hpp::RuntimeError &E) {
    std::printf("what: %s\n", E.what());
    std::printf("call: %s\n", E.call().c_str());
    std::printf("file: %s\n", E.file().c_str());
    std::printf("line: %d\n", E.line());
    std::printf("message: %s\n", E.backendMessage().c_str());
    return 1;
  } catch (const std::exception &E) {
    std::printf("exception: %s\n", E.what());
    return 1;
  }
  std::printf("no error\n");
  return 0;
}
