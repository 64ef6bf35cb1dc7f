// expect: ok
// Spelling that does not change the types: const after the type, __restrict__, top-level const, int32_t.
#include <cuda_runtime.h>
#include <cstdint>

__global__ void copy(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

extern "C" void solve(int const* __restrict__ input, int32_t* const output, const int n) {
    copy<<<(n + 255) / 256, 256>>>(input, output, n);
}
