// Does not compile: the error is the plain compile's.
#include <hpp/hpp.h>

int main() { return undeclared_name; }
