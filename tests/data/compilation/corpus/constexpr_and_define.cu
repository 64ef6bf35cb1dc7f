// expect: ok
// #define and constexpr constants shared by host and device code.
#include <cuda_runtime.h>
#include <cstdint>
#include <climits>

#define BLOCK 256
constexpr int ITEMS = 4;
constexpr int TILE = BLOCK * ITEMS;

__global__ void clamp_copy(const int* in, int* out, int n) {
    __shared__ int stage[TILE];
    int base = blockIdx.x * TILE;
    for (int k = threadIdx.x; k < TILE; k += BLOCK) stage[k] = base + k < n ? in[base + k] : INT_MAX;
    __syncthreads();
    for (int k = threadIdx.x; k < TILE && base + k < n; k += BLOCK) out[base + k] = (int32_t)stage[k];
}

extern "C" void solve(const int* input, int* output, int n) {
    clamp_copy<<<(n + TILE - 1) / TILE, BLOCK>>>(input, output, n);
}
