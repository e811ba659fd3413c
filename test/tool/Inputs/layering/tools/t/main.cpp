#include "hpp-rewrite/Rule.h"
#include "Framework/Edits.h"
