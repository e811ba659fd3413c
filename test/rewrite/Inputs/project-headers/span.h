// A helper whose body depends on a macro that one source's compile command
// defines and the other's does not (project-headers.test): the sources see
// two different functions, and no one rewrite of the header is right.
#pragma once
#include <hpp/hpp.h>

inline int span() {
#if SPAN_FROM_WARP
  return warpSize;
#else
  return 64;
#endif
}
