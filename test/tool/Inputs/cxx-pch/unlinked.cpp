// Compiles, does not link: the error is the plain command's linker error.
#include <hpp/hpp.h>

int missingFunction();

int main() { return missingFunction(); }
