// A header included through helpers.h that includes the dialect header.
#pragma once
#include <hpp/hpp.h>

/// The lane of \p x in its mvector.
__device(hpp) inline int laneOf(int x) { return x % MVECTOR_SIZE; }
