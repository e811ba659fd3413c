// No dialect here: --all skips this translation unit.
#include <vector>

int plain() { return static_cast<int>(std::vector<int>(3).size()); }
