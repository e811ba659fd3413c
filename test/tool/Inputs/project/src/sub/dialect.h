// Includes the dialect header for via-header.cpp, which does not.
#include <hpp/hpp.h>
