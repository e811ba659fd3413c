#include <hpp/hpp.h>
  parallelFor(Range<1, 1>(Range<1>(groups * GroupSize), Range<1>(GroupSize)),
              [=](Index<1, 1> i) __device(hpp) {
  parallelFor(Range<1, 1>(Range<1>(groups * GroupSize), Range<1>(GroupSize)),
              [=](Index<1, 1> i) __device(hpp) {
                std::size_t items = i.getGlobalSizeX();
                for (; v + 3 * items < vectors; v += 4 * items) {
                }
              });
// Reduced from a hpp-rewrite-fuzzer finding (2026-11-26). Clang 19 crashes
// here by itself (clang++-19 -fsyntax-only: "PLEASE submit a bug report"),
// in Sema::tryCaptureVariable during the delayed typo correction of the
// lambda's body, after the errors this invalid code gives
// (test/tool/clang-crash.test).
