// expect: WA
// Mistake: every block compacts its own 256 elements correctly (ballot + popc) but writes them at the start of ITS tile instead of after everything kept by earlier blocks: right for N <= 256, gaps of zeros after that.
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void compact_tile(const float* A, float* out, int n) {
    __shared__ int warp_count[kThreads / 32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int i = blockIdx.x * kThreads + threadIdx.x;
    const float v = i < n ? A[i] : 0.0f;
    const unsigned mask = __ballot_sync(0xffffffffu, v > 0.0f);
    if (lane == 0) warp_count[warp] = __popc(mask);
    __syncthreads();
    int before = 0;
    for (int w = 0; w < warp; ++w) before += warp_count[w];
    // BUG: the offset should be the number of kept elements in all earlier tiles, not the tile start.
    if (v > 0.0f) out[blockIdx.x * kThreads + before + __popc(mask & ((1u << lane) - 1u))] = v;
}

extern "C" void solve(const float* A, int N, float* out) {
    compact_tile<<<(N + kThreads - 1) / kThreads, kThreads>>>(A, out, N);
}
