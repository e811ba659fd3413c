//===- src/scale.cpp - The header's template algorithm --------------------===//
//
// Part of hpp-rewrite: examples/project (README.md).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// projScale: proj/algo.h's mapInPlace with its Scale functor; main.cpp
/// calls mapInPlace too, with another functor.
///
//===----------------------------------------------------------------------===//

#include <hpp/hpp.h>

#include "proj/algo.h"

#include "project.h"

using namespace hpp;

void projScale(Pointer<float> p, int n, float by) {
  proj::mapInPlace(p, n, proj::Scale{by});
}
