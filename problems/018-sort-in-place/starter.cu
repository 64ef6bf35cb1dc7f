#include <cuda_runtime.h>

// Sort the N floats of data in ascending order, in place (data is a device pointer).
// -0.0 and 0.0 compare equal, so they may end up in either order.
//
// This starter runs one odd-even transposition round, with one thread per pair: it only fixes
// neighbours that are out of order, which is not nearly enough. Ideas:
//   * a bitonic sorting network: stages k = 2, 4, ..., P (P = the next power of two >= N), each a
//     series of compare-exchange steps; N need NOT be a power of two — handle the missing keys;
//   * do the short-distance steps of a tile in shared memory (with __syncthreads() between steps);
//   * or an LSD radix sort on the float bits, after mapping them to keys that sort like the floats
//     (negative floats are sign-magnitude!), with a scratch buffer you cudaMalloc here.

__global__ void odd_even_round(float* data, int N, int phase) {
    int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x) + phase;
    if (i + 1 < N && data[i] > data[i + 1]) {
        float t = data[i];
        data[i] = data[i + 1];
        data[i + 1] = t;
    }
}

extern "C" void solve(float* data, int N) {
    const int threads = 256;
    const int blocks = (N / 2 + threads) / threads;
    odd_even_round<<<blocks, threads>>>(data, N, 0);   // TODO: sort for real
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
