// expect: ok
// printf and assert in device code, with the C headers a learner would include.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void checked_copy(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(n >= 0);
    if (i == 0) printf("copying %d elements\n", n);
    if (i < n) out[i] = in[i];
}

extern "C" void solve(const int* input, int* output, int n) {
    checked_copy<<<(n + 255) / 256, 256>>>(input, output, n);
}
