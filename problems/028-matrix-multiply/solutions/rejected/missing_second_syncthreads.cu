// expect: WA race
// Leaves out the second __syncthreads() of the tile loop: a fast thread loads the NEXT tiles into shared memory while slower threads are still multiplying with the current ones.
#include <cuda_runtime.h>

constexpr int kT = 32;

__global__ void __launch_bounds__(kT * kT)
matmul_tiled(const float* __restrict__ A, const float* __restrict__ B, float* C, int M, int N, int K) {
    __shared__ float As[kT][kT];
    __shared__ float Bs[kT][kT + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kT + ty;
    const int col = blockIdx.x * kT + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += kT) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[(size_t)row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(size_t)(k0 + ty) * N + col] : 0.0f;
        __syncthreads();                       // the tiles are complete
#pragma unroll
        for (int k = 0; k < kT; ++k) acc += As[ty][k] * Bs[k][tx];
        // (no barrier here: the next iteration overwrites As and Bs right away)
    }
    if (row < M && col < N) C[(size_t)row * N + col] = acc;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    const dim3 block(kT, kT);
    const dim3 grid((N + kT - 1) / kT, (M + kT - 1) / kT);
    matmul_tiled<<<grid, block>>>(A, B, C, M, N, K);
}
