#include "Rules/SomeRule.h"
