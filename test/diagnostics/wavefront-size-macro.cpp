// Wavefront widths taken from the preprocessor are reported in the main
// file (warnings; the source is still rewritten): __AMDGCN_WAVEFRONT_SIZE__,
// removed in ROCm 7.2 (in code with a fix-it to hpp::getWarpSize(), in a
// condition with a note), and AMD target macros tested to pick a width
// (wave64 vs wave32 is per target). Skipped blocks count: the macros are
// undefined when the tool parses. Comments and strings do not.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not="{{warning|error}}:"
// RUN: %hpp_rewrite %s -o %t.fix.cpp -- -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIXIT --implicit-check-not=fix-it:
// RUN: FileCheck %s --check-prefix=OUT < %t.cpp

#include <hpp/hpp.h>
using namespace hpp;

#if defined(__AMDGCN_WAVEFRONT_SIZE__) && __AMDGCN_WAVEFRONT_SIZE__ == 64
// CHECK-MESSAGES: wavefront-size-macro.cpp:[[@LINE-1]]:13: warning: '__AMDGCN_WAVEFRONT_SIZE__' in a preprocessor condition: ROCm 7.2 removed the macro [hpp-wavefront-size-macro]
// CHECK-MESSAGES: wavefront-size-macro.cpp:[[@LINE-2]]:13: note: the wavefront width is not a preprocessor constant; test hpp::getWarpSize() in code (MVECTOR_MAX / MVECTOR_MIN are the compile-time bounds)
// CHECK-MESSAGES: wavefront-size-macro.cpp:[[@LINE-3]]:43: warning: '__AMDGCN_WAVEFRONT_SIZE__' in a preprocessor condition
// CHECK-MESSAGES: :[[@LINE-4]]:43: note: the wavefront width is not a preprocessor constant
#define WAVE 64
#else
#define WAVE 32
#endif

#ifdef __AMDGCN_WAVEFRONT_SIZE__
// CHECK-MESSAGES: wavefront-size-macro.cpp:[[@LINE-1]]:8: warning: '__AMDGCN_WAVEFRONT_SIZE__' in a preprocessor condition
// CHECK-MESSAGES: :[[@LINE-2]]:8: note: the wavefront width
constexpr int Wave = __AMDGCN_WAVEFRONT_SIZE__;
// CHECK-MESSAGES: wavefront-size-macro.cpp:[[@LINE-1]]:22: warning: '__AMDGCN_WAVEFRONT_SIZE__' was removed in ROCm 7.2; use hpp::getWarpSize() [hpp-wavefront-size-macro]
// FIXIT: fix-it:"{{.*}}wavefront-size-macro.cpp":{[[@LINE-2]]:22-[[@LINE-2]]:47}:"hpp::getWarpSize()"
#endif

// Nested in a skipped block.
#if defined(__HIP_DEVICE_COMPILE__)
#if __AMDGCN_WAVEFRONT_SIZE__ == 32
// CHECK-MESSAGES: wavefront-size-macro.cpp:[[@LINE-1]]:5: warning: '__AMDGCN_WAVEFRONT_SIZE__' in a preprocessor condition
// CHECK-MESSAGES: :[[@LINE-2]]:5: note: the wavefront width
#endif
#endif

// Defining the macro is not a use; using it in code is, in device code as
// anywhere (the fix-it is not applied: the output keeps the macro).
#ifndef __AMDGCN_WAVEFRONT_SIZE__
// CHECK-MESSAGES: wavefront-size-macro.cpp:[[@LINE-1]]:9: warning: '__AMDGCN_WAVEFRONT_SIZE__' in a preprocessor condition
// CHECK-MESSAGES: :[[@LINE-2]]:9: note: the wavefront width
#define __AMDGCN_WAVEFRONT_SIZE__ 64
#endif
#define LANES (__AMDGCN_WAVEFRONT_SIZE__ - 1)
// CHECK-MESSAGES: wavefront-size-macro.cpp:[[@LINE-1]]:16: warning: '__AMDGCN_WAVEFRONT_SIZE__' was removed in ROCm 7.2
// FIXIT: fix-it:"{{.*}}wavefront-size-macro.cpp":{[[@LINE-2]]:16-[[@LINE-2]]:41}:"hpp::getWarpSize()"

__device(hpp) int laneOf(int id) { return id % __AMDGCN_WAVEFRONT_SIZE__; }
// CHECK-MESSAGES: wavefront-size-macro.cpp:[[@LINE-1]]:48: warning: '__AMDGCN_WAVEFRONT_SIZE__' was removed in ROCm 7.2
// FIXIT: fix-it:"{{.*}}wavefront-size-macro.cpp":{[[@LINE-2]]:48-[[@LINE-2]]:73}:"hpp::getWarpSize()"
// OUT: int laneOf(int id) { return id % __AMDGCN_WAVEFRONT_SIZE__; }

// Target macros choosing a width: one report per directive.
#if defined(__GFX10__) || defined(__GFX11__)
// CHECK-MESSAGES: wavefront-size-macro.cpp:[[@LINE-1]]:13: warning: target macro '__GFX10__' used as a wavefront-width test [hpp-wavefront-size-macro]
// CHECK-MESSAGES: :[[@LINE-2]]:13: note: wave64 vs wave32 is per target, not per GPU family (gfx90a: 64, gfx1030: 32); use hpp::getWarpSize() in code
#define TILE 32
#elif defined(__gfx90a__) || defined(__gfx942__)
// CHECK-MESSAGES: wavefront-size-macro.cpp:[[@LINE-1]]:15: warning: target macro '__gfx90a__' used as a wavefront-width test
// CHECK-MESSAGES: :[[@LINE-2]]:15: note: wave64 vs wave32
#define TILE 64
#else
#define TILE 32
#endif

#if __GFX9__
// CHECK-MESSAGES: wavefront-size-macro.cpp:[[@LINE-1]]:5: warning: target macro '__GFX9__' used as a wavefront-width test
// CHECK-MESSAGES: :[[@LINE-2]]:5: note: wave64 vs wave32
int gfx9Width() { return warpSize; }
#endif

// Not width tests: a target macro guarding something else, the macro's name
// in a comment (__AMDGCN_WAVEFRONT_SIZE__) or a string.
#ifdef __gfx90a__
#define HAS_MFMA 1
#endif
const char *Name = "__AMDGCN_WAVEFRONT_SIZE__";
#if defined(__HIP_DEVICE_COMPILE__) && TILE > 1
int tile() { return TILE; }
#endif
