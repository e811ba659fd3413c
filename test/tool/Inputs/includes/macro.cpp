// test/tool/absolute-includes.test: a header beside the source, named
// through a macro.
#include <hpp/hpp.h>

#define HEADER "beside.h"
#include HEADER
