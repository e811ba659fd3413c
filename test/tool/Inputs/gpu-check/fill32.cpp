// The same template instantiated at 32 (test/tool/gpu-check-symbols.test).
template <int N> void fill(int *p) { *p = N; }
void host(int *p) { fill<32>(p); }
