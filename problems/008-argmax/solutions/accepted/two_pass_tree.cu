// Two-pass argmax with shared-memory trees of (value, index) pairs.
//   pass 1: one element per thread; each block reduces its 256 pairs and stores the winner;
//   pass 2: one block of 1024 threads reduces the per-block winners and writes index[0].
// The combining rule keeps the larger value and, when the values are equal, the SMALLER index,
// so the result is the first position of the maximum no matter in which order pairs meet.
#include <cuda_runtime.h>
#include <cfloat>

constexpr int kBlock = 256;     // power of two
constexpr int kFinal = 1024;    // power of two

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
        __syncthreads();
    }
    if (t == 0) {
        if (out_v != nullptr) *out_v = vals[0];
        *out_i = idxs[0];
    }
}

__global__ void block_winners(const float* in, float* win_v, int* win_i, int n) {
    const int i = blockIdx.x * kBlock + threadIdx.x;
    // Padding threads carry (-FLT_MAX, INT_MAX): no real element is smaller, and with the
    // largest possible index the padding loses every tie.
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
    if (N <= 0) return;
    const int blocks = (N + kBlock - 1) / kBlock;
    void* scratch = nullptr;
    if (cudaMalloc(&scratch, (sizeof(float) + sizeof(int)) * blocks) != cudaSuccess) return;
    float* win_v = static_cast<float*>(scratch);
    int* win_i = reinterpret_cast<int*>(win_v + blocks);
    block_winners<<<blocks, kBlock>>>(input, win_v, win_i, N);
    final_winner<<<1, kFinal>>>(win_v, win_i, blocks, index);
    cudaFree(scratch);
}
