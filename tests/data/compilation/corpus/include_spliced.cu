// expect: error "is not allowed" at line 4
// A directive split by a backslash-newline is still an #include to the preprocessor.
#include <cuda_runtime.h>
#inc\
lude "/etc/hostname"

extern "C" void solve(const int* input, int* output, int n) {}
