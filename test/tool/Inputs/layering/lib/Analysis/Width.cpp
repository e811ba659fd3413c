#include "Outline/Kernel.h"
#include "Framework/Edits.h"
