// expect: WA
// Mistake: each block's tree pairs values with threadIdx.x, the position inside the block, and the final pass returns that position; the answer is right only when the maximum lies in block 0 (blockIdx.x * blockDim.x + threadIdx.x is the element's index).
#include <cuda_runtime.h>
#include <cfloat>

constexpr int kBlock = 256;
constexpr int kFinal = 1024;

__device__ __forceinline__ bool wins(float v, int i, float other_v, int other_i) {
    return v > other_v || (v == other_v && i < other_i);
}

// Leaves the block's best (value, index) in slot 0 of the shared arrays.
template <int Threads>
__device__ void reduce_block(float* vals, int* idxs) {
    const int t = threadIdx.x;
    __syncthreads();
    for (int stride = Threads / 2; stride > 0; stride >>= 1) {
        if (t < stride && wins(vals[t + stride], idxs[t + stride], vals[t], idxs[t])) {
            vals[t] = vals[t + stride];
            idxs[t] = idxs[t + stride];
        }
        __syncthreads();
    }
}

__global__ void per_block(const float* in, float* best_v, int* best_i, int n) {
    __shared__ float vals[kBlock];
    __shared__ int idxs[kBlock];
    const int t = threadIdx.x;
    const int i = blockIdx.x * kBlock + t;
    vals[t] = i < n ? in[i] : -FLT_MAX;
    idxs[t] = i < n ? t : 0x7fffffff;   // BUG: should be i, the element's index in the whole array
    reduce_block<kBlock>(vals, idxs);
    if (t == 0) {
        best_v[blockIdx.x] = vals[0];
        best_i[blockIdx.x] = idxs[0];
    }
}

__global__ void across_blocks(const float* best_v, const int* best_i, int count, int* index) {
    __shared__ float vals[kFinal];
    __shared__ int idxs[kFinal];
    const int t = threadIdx.x;
    float v = -FLT_MAX;
    int at = 0x7fffffff;
    for (int k = t; k < count; k += kFinal)
        if (wins(best_v[k], best_i[k], v, at)) { v = best_v[k]; at = best_i[k]; }
    vals[t] = v;
    idxs[t] = at;
    reduce_block<kFinal>(vals, idxs);
    if (t == 0) *index = idxs[0];
}

extern "C" void solve(const float* input, int* index, int N) {
    const int blocks = (N + kBlock - 1) / kBlock;
    float* best_v = nullptr;
    int* best_i = nullptr;
    cudaMalloc(&best_v, sizeof(float) * blocks);
    cudaMalloc(&best_i, sizeof(int) * blocks);
    per_block<<<blocks, kBlock>>>(input, best_v, best_i, N);
    across_blocks<<<1, kFinal>>>(best_v, best_i, blocks, index);
    cudaFree(best_v);
    cudaFree(best_i);
}
