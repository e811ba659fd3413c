#include <hpp/hpp.h>
#include "no-such-header.h"
