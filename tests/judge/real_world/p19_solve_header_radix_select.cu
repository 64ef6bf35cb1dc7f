// Style: "template header" (#include "solve.h", C++ linkage, non-const input) + nvcc spellings (uint, __FLT_MAX__, host min, dim3 blockDim/gridDim).
#include "solve.h"
#include <cuda_runtime.h>

// Radix select: 4 histogram passes of 8 bits find the exact key of the k-th largest value
// (keys: float bits mapped so that unsigned order = float order). Then every value above it is
// gathered (fewer than k), the missing slots are copies of the k-th value, and one block sorts
// the k <= 1024 winners in descending order.

struct SelectState {
    uint prefix;      // the digits of the k-th largest key found so far
    uint mask;        // which bits of prefix are known
    uint remaining;   // how many values still to take from the keys that match prefix
    uint above;       // gather counter: values strictly above the threshold
};

__device__ __forceinline__ uint toKey(float f) {
    uint b = __float_as_uint(f);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
__device__ __forceinline__ float fromKey(uint k) {
    return __uint_as_float((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k);
}

__global__ void histogram(float* in, uint n, const SelectState* st, uint* hist, uint shift) {
    __shared__ uint local[256];
    local[threadIdx.x] = 0;
    __syncthreads();
    uint prefix = st->prefix, mask = st->mask;
    for (uint i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        uint key = toKey(in[i]);
        if ((key & mask) == prefix) atomicAdd(&local[(key >> shift) & 255u], 1u);
    }
    __syncthreads();
    if (local[threadIdx.x]) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

// one thread walks the 256 bins from the top and picks the bin holding the k-th largest
__global__ void pickBin(const uint* hist, SelectState* st, uint shift) {
    uint seen = 0, need = st->remaining;
    for (int b = 255; b >= 0; --b) {
        if (seen + hist[b] >= need) {
            st->prefix |= (uint)b << shift;
            st->mask |= 255u << shift;
            st->remaining = need - seen;
            return;
        }
        seen += hist[b];
    }
}

__global__ void gatherAbove(float* in, uint n, SelectState* st, float* cand) {
    uint threshold = st->prefix;
    for (uint i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float x = in[i];
        if (toKey(x) > threshold) cand[atomicAdd(&st->above, 1u)] = x;
    }
}

// one block of 512 threads: bitonic sort of 1024 slots, largest first
__global__ void sortWinners(const float* cand, const SelectState* st, float* out, uint k) {
    __shared__ float s[1024];
    uint above = st->above;
    float kth = fromKey(st->prefix);
    for (uint j = threadIdx.x; j < 1024; j += blockDim.x)
        s[j] = j < above ? cand[j] : (j < k ? kth : -__FLT_MAX__);
    __syncthreads();
    uint t = threadIdx.x;
    for (uint size = 2; size <= 1024; size <<= 1) {
        for (uint j = size >> 1; j > 0; j >>= 1) {
            uint a = (t / j) * 2 * j + (t % j), b = a + j;
            bool desc = (a & size) == 0;   // direction of this bitonic subsequence
            float x = s[a], y = s[b];
            if (desc ? (x < y) : (x > y)) { s[a] = y; s[b] = x; }
            __syncthreads();
        }
    }
    for (uint j = threadIdx.x; j < k; j += blockDim.x) out[j] = s[j];
}

void solve(float* input, float* output, int N, int k) {
    SelectState init = {0u, 0u, (uint)k, 0u};
    SelectState* st;
    uint* hist;
    float* cand;
    cudaMalloc(&st, sizeof(SelectState));
    cudaMalloc(&hist, 256 * sizeof(uint));
    cudaMalloc(&cand, 1024 * sizeof(float));
    cudaMemcpy(st, &init, sizeof(SelectState), cudaMemcpyHostToDevice);

    dim3 blockDim(256);
    dim3 gridDim(min((N + 255) / 256, 1024));
    for (int shift = 24; shift >= 0; shift -= 8) {
        cudaMemset(hist, 0, 256 * sizeof(uint));
        histogram<<<gridDim, blockDim>>>(input, N, st, hist, shift);
        pickBin<<<1, 1>>>(hist, st, shift);
    }
    gatherAbove<<<gridDim, blockDim>>>(input, N, st, cand);
    sortWinners<<<1, 512>>>(cand, st, output, k);

    cudaFree(st);
    cudaFree(hist);
    cudaFree(cand);
}
