// expect: WA
// Unstable scatter: every key takes its slot with atomicAdd on a per-digit cursor, so keys with the same digit land in whatever order the threads happen to run, and each pass scrambles the order the previous passes established.
#include <cuda_runtime.h>

constexpr int kDigits = 256;   // 8 bits per pass, 4 passes

__global__ void count_digits(const unsigned int* keys, unsigned int* counts, int n, int shift) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&counts[(keys[i] >> shift) & (kDigits - 1)], 1u);
}

// One block of 256 threads: exclusive scan of the 256 digit counts (serially, by thread 0).
__global__ void digit_starts(unsigned int* counts) {
    if (threadIdx.x == 0) {
        unsigned run = 0;
        for (int d = 0; d < kDigits; ++d) {
            const unsigned c = counts[d];
            counts[d] = run;
            run += c;
        }
    }
}

__global__ void scatter_atomic(const unsigned int* in, unsigned int* out, unsigned int* cursor, int n, int shift) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const unsigned key = in[i];
        const unsigned pos = atomicAdd(&cursor[(key >> shift) & (kDigits - 1)], 1u);   // BUG: not stable
        out[pos] = key;
    }
}

extern "C" void solve(const unsigned int* input, unsigned int* output, int N) {
    unsigned int *tmp = nullptr, *counts = nullptr;
    cudaMalloc(&tmp, (size_t)N * sizeof(unsigned int));
    cudaMalloc(&counts, kDigits * sizeof(unsigned int));
    const int threads = 256, blocks = (N + threads - 1) / threads;
    const unsigned int* src = input;
    for (int shift = 0; shift < 32; shift += 8) {
        unsigned int* dst = (src == tmp) ? output : tmp;
        cudaMemset(counts, 0, kDigits * sizeof(unsigned int));
        count_digits<<<blocks, threads>>>(src, counts, N, shift);
        digit_starts<<<1, 32>>>(counts);
        scatter_atomic<<<blocks, threads>>>(src, dst, counts, N, shift);
        src = dst;
    }
    cudaFree(counts);
    cudaFree(tmp);
}
