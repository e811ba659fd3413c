#include "hpp-rewrite/Rule.h"
