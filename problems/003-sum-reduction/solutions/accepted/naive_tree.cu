#include <cuda_runtime.h>

// Classic shared-memory tree, one element per thread. Each launch turns n values into
// ceil(n / 256) block sums; launches repeat until one value is left, which goes to output[0].
// Every level is a pairwise tree, so rounding error grows only with log2(N).

constexpr int BLOCK = 256;   // must be a power of two

__global__ void block_sums(const float* in, float* out, int n) {
    __shared__ float sm[BLOCK];
    const int tid = threadIdx.x;
    const int i = blockIdx.x * BLOCK + tid;
    sm[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) sm[tid] += sm[tid + s];
        __syncthreads();              // every step must finish before the next one reads
    }
    if (tid == 0) out[blockIdx.x] = sm[0];
}

extern "C" void solve(const float* input, float* output, int N) {
    if (N <= 0) return;
    int blocks = (N + BLOCK - 1) / BLOCK;
    if (blocks == 1) {
        block_sums<<<1, BLOCK>>>(input, output, N);
        return;
    }
    // two scratch areas used in turn: level 1 needs `blocks` floats, level 2 at most blocks/256 + 1
    int second = (blocks + BLOCK - 1) / BLOCK;
    float* scratch = nullptr;
    cudaMalloc(&scratch, sizeof(float) * (blocks + second));
    float* buf[2] = {scratch, scratch + blocks};

    const float* src = input;
    int n = N, level = 0;
    while (true) {
        blocks = (n + BLOCK - 1) / BLOCK;
        float* dst = blocks == 1 ? output : buf[level & 1];
        block_sums<<<blocks, BLOCK>>>(src, dst, n);
        if (blocks == 1) break;
        src = dst;
        n = blocks;
        ++level;
    }
    cudaFree(scratch);
}
