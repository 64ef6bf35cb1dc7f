// expect: error "is not allowed"
// The digraph %: is a # to the preprocessor.
#include <cuda_runtime.h>
%:include "/etc/hostname"  // <- error

extern "C" void solve(const int* input, int* output, int n) {}
