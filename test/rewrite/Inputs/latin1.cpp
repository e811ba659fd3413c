// A Latin-1 source (test/rewrite/source-encoding.cpp): its literals hold
// bytes that are not UTF-8.
#include <hpp/hpp.h>
#include <cstdio>
using namespace hpp;
#define GREETING "hé"
int main() {
  Pointer<int> p = allocate<int>(4);
  const char *host = "café Ã©té é7";
  parallelFor(Range<1>(4), [=](Index<1> i) __device(hpp) {
    const char *s = "été";
    char c = 'é';
    p[i.getX()] = (unsigned char)s[i.getX() % 3] + (unsigned char)c;
  });
#if 0
  const char *never = "ÿ";
#endif
  std::printf("%d %d %s %s\n", p[0], p[1], host, GREETING);
  return 0;
}
