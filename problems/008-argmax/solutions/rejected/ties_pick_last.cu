// expect: WA
// Mistake: the tree keeps the right-hand pair when the values are equal (>= instead of >), so among equal maxima it returns the LAST index, not the first; with all elements equal the answer should be 0.
#include <cuda_runtime.h>
#include <cfloat>

constexpr int kBlock = 256;
constexpr int kFinal = 1024;

template <int Threads>
__device__ void block_argmax(float v, int i, float* out_v, int* out_i) {
    __shared__ float vals[Threads];
    __shared__ int idxs[Threads];
    const int t = threadIdx.x;
    vals[t] = v;
    idxs[t] = i;
    __syncthreads();
    for (int half = Threads / 2; half > 0; half >>= 1) {
        if (t < half && vals[t + half] >= vals[t]) {          // BUG: ties go to the larger index
            vals[t] = vals[t + half];
            idxs[t] = idxs[t + half];
        }
        __syncthreads();
    }
    if (t == 0) {
        if (out_v != nullptr) *out_v = vals[0];
        *out_i = idxs[0];
    }
}

__global__ void block_winners(const float* in, float* win_v, int* win_i, int n) {
    const int i = blockIdx.x * kBlock + threadIdx.x;
    block_argmax<kBlock>(i < n ? in[i] : -FLT_MAX, i < n ? i : -1, &win_v[blockIdx.x], &win_i[blockIdx.x]);
}

__global__ void final_winner(const float* win_v, const int* win_i, int count, int* index) {
    float best_v = -FLT_MAX;
    int best_i = -1;
    for (int k = threadIdx.x; k < count; k += kFinal)
        if (win_v[k] >= best_v) { best_v = win_v[k]; best_i = win_i[k]; }
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
