// expect: WA
// Mistake: finds the maximum VALUE with atomicMax, then lets every thread whose element equals it write its own index; when the maximum occurs several times, whichever write lands last wins instead of the first position.
#include <cuda_runtime.h>

constexpr int kThreads = 256;

// Order-preserving float -> int map, so atomicMax on ints compares the floats.
__device__ __forceinline__ int ordered(float f) {
    const int b = __float_as_int(f);
    return b >= 0 ? b : b ^ 0x7fffffff;
}

__global__ void max_value(const float* in, int* max_key, int n) {
    const int i = blockIdx.x * kThreads + threadIdx.x;
    if (i < n) atomicMax(max_key, ordered(in[i]));
}

__global__ void write_index(const float* in, const int* max_key, int* index, int n) {
    const int i = blockIdx.x * kThreads + threadIdx.x;
    if (i < n && ordered(in[i]) == *max_key) *index = i;     // BUG: many writers, no "first" rule
}

extern "C" void solve(const float* input, int* index, int N) {
    int* max_key = nullptr;
    cudaMalloc(&max_key, sizeof(int));
    const int lowest = (int)0x80000000;
    cudaMemcpyAsync(max_key, &lowest, sizeof(int), cudaMemcpyHostToDevice);
    const int blocks = (N + kThreads - 1) / kThreads;
    max_value<<<blocks, kThreads>>>(input, max_key, N);
    write_index<<<blocks, kThreads>>>(input, max_key, index, N);
    cudaFree(max_key);
}
