//===- mode.h - What the build's flags make of the program ----------------===//
//
// Part of hpp-rewrite. examples/cmake-project. Only main.cpp includes it,
// so touching it re-runs the rewrite of main.cpp alone.
//
//===----------------------------------------------------------------------===//
#ifndef MODE_H
#define MODE_H

/// The flags the build gives, one bit each: 1 for NDEBUG (a Release
/// build), 2 for SAXPY_EXTRA (given in CMAKE_CXX_FLAGS, say), 4 for
/// SAXPY_TUNED (target_compile_options in CMakeLists.txt), 8 for C++20 or
/// later (SAXPY_STANDARD). The host and a kernel must see the same value.
constexpr int BuildMode =
#ifdef NDEBUG
    1 +
#endif
#ifdef SAXPY_EXTRA
    2 +
#endif
#ifdef SAXPY_TUNED
    4 +
#endif
#if __cplusplus >= 202002L
    8 +
#endif
    0;

#endif // MODE_H
