//===- scale.h - The factor saxpy.cpp scales by ---------------------------===//
//
// Part of hpp-rewrite. examples/cmake-project. Only saxpy.cpp includes it,
// so touching it re-runs the rewrite of saxpy.cpp alone.
//
//===----------------------------------------------------------------------===//
#ifndef SCALE_H
#define SCALE_H

/// Applied to a on top of what the caller passes.
constexpr float ExtraScale = 1.0f;

#endif // SCALE_H
