#include "hpp-rewrite/Other.h"
#include "Analysis/Width.h"
