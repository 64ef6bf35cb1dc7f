// expect: error "no '..'"
#include <cuda_runtime.h>
#include "../secret/key.h"  // <- error

extern "C" void solve(const int* input, int* output, int n) {}
