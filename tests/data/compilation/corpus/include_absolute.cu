// expect: error "is not allowed"
#include <cuda_runtime.h>
#include "/etc/passwd"  // <- error

extern "C" void solve(const int* input, int* output, int n) {}
