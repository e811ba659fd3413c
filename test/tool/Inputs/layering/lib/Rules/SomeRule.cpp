#include "Outline/Kernel.h"
#include "Outline/KernelSites.h"
#include "Analysis/Width.h"
