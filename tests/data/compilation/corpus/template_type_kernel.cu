// expect: ok
// A kernel template over a type and an int, launched with two instantiations.
#include <cuda_runtime.h>

template <typename T, int ITEMS>
__global__ void copy_items(const T* __restrict__ in, T* __restrict__ out, int n) {
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
        if (base + k < n) out[base + k] = in[base + k];
}

extern "C" void solve(const int* input, int* output, int n) {
    copy_items<int, 4><<<(n + 1023) / 1024, 256>>>(input, output, n);
    copy_items<unsigned int, 1><<<(n + 255) / 256, 256>>>(reinterpret_cast<const unsigned int*>(input),
                                                          reinterpret_cast<unsigned int*>(output), n);
}
