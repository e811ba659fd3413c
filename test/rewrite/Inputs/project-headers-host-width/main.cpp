// Includes lanes.h and does not call laneId() (project-headers-host-width.test).
#include <hpp/hpp.h>

#include "lanes.h"

#include <cstdio>

using namespace hpp;

void run(Pointer<int> p, int n);

int main() {
  Pointer<int> p = allocate<int>(64);
  run(p, 64);
  int ok = 0;
  for (int e = 0; e < 64; ++e)
    ok += p[e];
  std::printf("lanes right %d of 64\n", ok);
  return ok != 64;
}
