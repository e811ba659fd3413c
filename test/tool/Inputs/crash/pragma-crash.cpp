#include <hpp/hpp.h>
// Clang crashes here on purpose (SIGILL): test/tool/clang-crash.test.
int main() {
#pragma clang __debug crash
}
