// Two-pass dot product with shared-memory trees.
//   pass 1: one element per thread; each block multiplies its 256 pairs, sums them with a
//           pairwise tree in shared memory and stores the block's partial sum in scratch;
//   pass 2: a single block of 1024 threads adds up all partial sums (each thread first walks
//           a strided share of them, then the block runs the same tree) and writes result[0].
// result is written, never accumulated into, so its garbage initial value does not matter.
#include <cuda_runtime.h>

constexpr int kBlock = 256;        // pass 1 block size (power of two)
constexpr int kFinal = 1024;       // pass 2 block size (power of two)

__global__ void block_dot(const float* A, const float* B, float* partial, int n) {
    __shared__ float cache[kBlock];
    const int t = threadIdx.x;
    const int i = blockIdx.x * kBlock + t;
    cache[t] = i < n ? A[i] * B[i] : 0.0f;
    __syncthreads();
    for (int half = kBlock / 2; half > 0; half >>= 1) {
        if (t < half) cache[t] += cache[t + half];
        __syncthreads();                       // this level must be done before the next reads it
    }
    if (t == 0) partial[blockIdx.x] = cache[0];
}

__global__ void sum_partials(const float* partial, float* result, int count) {
    __shared__ float cache[kFinal];
    const int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = t; k < count; k += kFinal) acc += partial[k];
    cache[t] = acc;
    __syncthreads();
    for (int half = kFinal / 2; half > 0; half >>= 1) {
        if (t < half) cache[t] += cache[t + half];
        __syncthreads();
    }
    if (t == 0) result[0] = cache[0];
}

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    if (N <= 0) return;
    const int blocks = (N + kBlock - 1) / kBlock;
    float* partial = nullptr;
    if (cudaMalloc(&partial, sizeof(float) * blocks) != cudaSuccess) return;
    block_dot<<<blocks, kBlock>>>(A, B, partial, N);
    sum_partials<<<1, kFinal>>>(partial, result, blocks);
    cudaFree(partial);
}
