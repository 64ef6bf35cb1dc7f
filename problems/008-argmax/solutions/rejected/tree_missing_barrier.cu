// expect: WA
// Mistake: the shared-memory (value, index) tree has no __syncthreads() between its levels, so a thread compares against a partner slot that has not received its own half's winner yet.
#include <cuda_runtime.h>
#include <cfloat>

constexpr int kBlock = 256;
constexpr int kFinal = 1024;

__device__ __forceinline__ bool better(float v, int i, float best_v, int best_i) {
    return v > best_v || (v == best_v && i < best_i);
}

template <int Threads>
__device__ void block_argmax(float v, int i, float* out_v, int* out_i) {
    __shared__ float vals[Threads];
    __shared__ int idxs[Threads];
    const int t = threadIdx.x;
    vals[t] = v;
    idxs[t] = i;
    __syncthreads();
    for (int half = Threads / 2; half > 0; half >>= 1) {
        if (t < half && better(vals[t + half], idxs[t + half], vals[t], idxs[t])) {
            vals[t] = vals[t + half];
            idxs[t] = idxs[t + half];
        }
        // BUG: missing __syncthreads(); the next level may read slots not updated yet.
    }
    if (t == 0) {
        if (out_v != nullptr) *out_v = vals[0];
        *out_i = idxs[0];
    }
}

__global__ void block_winners(const float* in, float* win_v, int* win_i, int n) {
    const int i = blockIdx.x * kBlock + threadIdx.x;
    block_argmax<kBlock>(i < n ? in[i] : -FLT_MAX, i < n ? i : 0x7fffffff,
                         &win_v[blockIdx.x], &win_i[blockIdx.x]);
}

__global__ void final_winner(const float* win_v, const int* win_i, int count, int* index) {
    float best_v = -FLT_MAX;
    int best_i = 0x7fffffff;
    for (int k = threadIdx.x; k < count; k += kFinal)
        if (better(win_v[k], win_i[k], best_v, best_i)) { best_v = win_v[k]; best_i = win_i[k]; }
    block_argmax<kFinal>(best_v, best_i, nullptr, index);
}

extern "C" void solve(const float* input, int* index, int N) {
    const int blocks = (N + kBlock - 1) / kBlock;
    float* win_v = nullptr;
    int* win_i = nullptr;
    cudaMalloc(&win_v, sizeof(float) * blocks);
    cudaMalloc(&win_i, sizeof(int) * blocks);
    block_winners<<<blocks, kBlock>>>(input, win_v, win_i, N);
    final_winner<<<1, kFinal>>>(win_v, win_i, blocks, index);
    cudaFree(win_v);
    cudaFree(win_i);
}
