// expect: WA
// Mistake: counts the kept elements correctly but writes each one at its own index i instead of reserving a slot: output[0 .. count-1] then holds holes (never written) and misses kept elements that sit further back.
#include <cuda_runtime.h>

__global__ void compact_in_place(const float* input, float* output, int* count, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && input[i] > 0.0f) {
        atomicAdd(count, 1);
        output[i] = input[i];          // BUG: the slot should come from the atomicAdd above
    }
}

extern "C" void solve(const float* input, float* output, int* count, int n) {
    const int threads = 256;
    compact_in_place<<<(n + threads - 1) / threads, threads>>>(input, output, count, n);
}
