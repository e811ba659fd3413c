// A host function template instantiated at 16 (test/tool/gpu-check-symbols.test).
template <int N> void fill(int *p) { *p = N; }
void host(int *p) { fill<16>(p); }
int main() { int x; host(&x); return x; }
