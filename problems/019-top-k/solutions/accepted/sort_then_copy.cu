// Naive but correct: copy the input to a scratch buffer, sort it ascending with a global-memory
// bitonic sorting network (one launch per step), and copy the last k values backwards.
//
// Any N: the network is built for P = next power of two >= N with the keys N..P-1 imagined as
// +infinity; every comparator puts the smaller value at the lower index, so comparators that
// touch an imagined key never swap and are skipped.
#include <cuda_runtime.h>

__global__ void bitonic_step(float* a, int n, unsigned long long pairs, unsigned long long k,
                             unsigned long long j, bool mirror) {
    const unsigned long long p = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= pairs) return;
    const unsigned long long i = (p / j) * (2 * j) + (p % j);
    const unsigned long long l = mirror ? (i ^ (k - 1)) : (i + j);
    if (l >= (unsigned long long)n) return;
    const float x = a[i], y = a[l];
    if (x > y) { a[i] = y; a[l] = x; }
}

__global__ void copy_largest(const float* sorted, float* output, int n, int k) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < k) output[r] = sorted[n - 1 - r];          // largest first
}

extern "C" void solve(const float* input, float* output, int N, int k) {
    float* tmp = nullptr;
    if (cudaMalloc(&tmp, (size_t)N * sizeof(float)) != cudaSuccess) return;
    cudaMemcpy(tmp, input, (size_t)N * sizeof(float), cudaMemcpyDeviceToDevice);
    unsigned long long P = 1;
    while (P < (unsigned long long)N) P <<= 1;
    const unsigned long long pairs = P / 2;
    const unsigned int blocks = (unsigned int)((pairs + 255) / 256);
    for (unsigned long long s = 2; s <= P; s <<= 1) {
        bitonic_step<<<blocks, 256>>>(tmp, N, pairs, s, s / 2, true);
        for (unsigned long long j = s / 4; j >= 1; j >>= 1)
            bitonic_step<<<blocks, 256>>>(tmp, N, pairs, s, j, false);
    }
    copy_largest<<<(k + 255) / 256, 256>>>(tmp, output, N, k);
    cudaFree(tmp);
}
