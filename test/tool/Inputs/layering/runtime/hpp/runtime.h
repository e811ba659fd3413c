#include "hpp/hpp.h"
