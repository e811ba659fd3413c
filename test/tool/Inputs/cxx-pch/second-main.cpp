// The main of a program of two sources (test/tool/cxx-pch.test).
#include <cstdio>
#include <hpp/hpp.h>

#include "second.h"

int main() {
  hpp::Pointer<int> out = hpp::allocate<int>(32);
  std::printf("twice=%d\n", twice(out, 32));
  return 0;
}
