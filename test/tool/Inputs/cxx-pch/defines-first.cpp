// Defines a macro before the dialect header: never precompiled (the header
// would be read before the definition).
#define HPP_CXX_PCH_TEST 1
#include <hpp/hpp.h>
#include <cstdio>

int main() {
  std::printf("defined=%d\n", HPP_CXX_PCH_TEST);
  return 0;
}
