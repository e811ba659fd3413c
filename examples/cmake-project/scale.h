//===- scale.h - The factor saxpy.cpp scales by ---------------------------===//
//
// Part of hpp-rewrite. examples/cmake-project. main.cpp and saxpy.cpp
// include it from beside them, with quotes and no include directory.
//
//===----------------------------------------------------------------------===//
#ifndef SCALE_H
#define SCALE_H

/// Applied to a on top of what the caller passes.
constexpr float ExtraScale = 1.0f;

#endif // SCALE_H
