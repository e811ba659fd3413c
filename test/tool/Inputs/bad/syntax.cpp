#include <hpp/hpp.h>
int main() { int x = ; }
