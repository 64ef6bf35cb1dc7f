// expect: WA race
// Mistake: no __syncthreads() between filling the shared tile and reading it: a thread may read its neighbour's cell (or a halo cell) before the thread that loads it has written it, and gets a stale value.
#include <cuda_runtime.h>

constexpr int kTile = 256;

__device__ float fetch(const float* x, int j, int N, int boundary) {
    if (j >= 0 && j < N) return x[j];
    if (boundary == 0) return 0.0f;
    if (boundary == 1) return x[j < 0 ? 0 : N - 1];
    return x[j < 0 ? N - 1 : 0];
}

__global__ void stencil_shared(const float* x, float* y, int N, int boundary) {
    __shared__ float tile[kTile + 2];
    const int start = blockIdx.x * kTile;
    const int count = min(kTile, N - start);
    const int t = threadIdx.x;
    if (t < count) tile[t + 1] = x[start + t];
    if (t == 0) tile[0] = fetch(x, start - 1, N, boundary);
    if (t == 32) tile[count + 1] = fetch(x, start + count, N, boundary);
    // BUG: missing __syncthreads() here
    if (t < count) y[start + t] = 0.25f * tile[t] + 0.5f * tile[t + 1] + 0.25f * tile[t + 2];
}

extern "C" void solve(const float* input, float* output, int N, int boundary) {
    stencil_shared<<<(N + kTile - 1) / kTile, kTile>>>(input, output, N, boundary);
}
