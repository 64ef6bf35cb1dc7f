// expect: error "#line is not allowed"
#include <cuda_runtime.h>
#line 1 "/etc/passwd"  // <- error

extern "C" void solve(const int* input, int* output, int n) { undefined_name; }
