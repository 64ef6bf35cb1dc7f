// expect: RE
// Mistake: clears output first (unnecessary: it arrives zero-filled) and uses N, the number of values, as its length: output has M elements, so when N > M the clearing writes past its end.
#include <cuda_runtime.h>

__global__ void clear(float* output, int count) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count) output[k] = 0.0f;
}

__global__ void scatter_add(const float* values, const int* indices, float* output, int N) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) atomicAdd(&output[indices[i]], values[i]);
}

extern "C" void solve(const float* values, const int* indices, float* output, int N, int M) {
    const int threads = 256;
    clear<<<(N + threads - 1) / threads, threads>>>(output, N);   // BUG: output has M elements
    scatter_add<<<(N + threads - 1) / threads, threads>>>(values, indices, output, N);
}
