// expect: WA
// Mistake: the shared tile loads only the block's own elements and sets both halo cells to 0, as if every tile edge were the edge of the array: wrong at every tile boundary inside the array, and for clamp / wrap at the array's ends too.
#include <cuda_runtime.h>

constexpr int kTile = 256;

__global__ void stencil_shared(const float* x, float* y, int N, int boundary) {
    __shared__ float tile[kTile + 2];
    const int start = blockIdx.x * kTile;
    const int count = min(kTile, N - start);
    const int t = threadIdx.x;
    if (t < count) tile[t + 1] = x[start + t];
    if (t == 0) {
        tile[0] = 0.0f;                   // BUG: should be x[start - 1] (or the boundary value)
        tile[count + 1] = 0.0f;           // BUG: should be x[start + count] (or the boundary value)
    }
    __syncthreads();
    if (t < count) y[start + t] = 0.25f * tile[t] + 0.5f * tile[t + 1] + 0.25f * tile[t + 2];
}

extern "C" void solve(const float* input, float* output, int N, int boundary) {
    stencil_shared<<<(N + kTile - 1) / kTile, kTile>>>(input, output, N, boundary);
}
