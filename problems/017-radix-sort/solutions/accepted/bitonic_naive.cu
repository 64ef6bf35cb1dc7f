// Naive but correct: copy the keys to output, then sort them there with a bitonic sorting
// network, one kernel launch per compare-exchange step (O(N log^2 N) work).
//
// Non-power-of-two N: the network is built for P = next power of two >= N, with the missing
// keys treated as +infinity. In the variant used here every comparator puts the smaller key at
// the lower index (a "mirror" step starts each merge instead of descending comparators), so a
// comparator that touches a missing key never moves anything and can simply be skipped.
#include <cuda_runtime.h>

// Step with distance j inside merges of size k: pair p is (i, partner). With mirror set, the
// partner is i's mirror image in its k-block (i ^ (k - 1)), otherwise i + j.
__global__ void bitonic_step(unsigned int* a, int n, unsigned long long pairs,
                             unsigned long long k, unsigned long long j, bool mirror) {
    const unsigned long long p = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= pairs) return;
    const unsigned long long i = (p / j) * (2 * j) + (p % j);
    const unsigned long long l = mirror ? (i ^ (k - 1)) : (i + j);
    if (l >= (unsigned long long)n) return;            // partner is a missing (+inf) key
    const unsigned int x = a[i], y = a[l];
    if (x > y) { a[i] = y; a[l] = x; }
}

extern "C" void solve(const unsigned int* input, unsigned int* output, int N) {
    if (N <= 0) return;
    cudaMemcpy(output, input, (size_t)N * sizeof(unsigned int), cudaMemcpyDeviceToDevice);
    unsigned long long P = 1;
    while (P < (unsigned long long)N) P <<= 1;
    const unsigned long long pairs = P / 2;
    const int threads = 256;
    const unsigned int blocks = (unsigned int)((pairs + threads - 1) / threads);
    for (unsigned long long k = 2; k <= P; k <<= 1) {
        bitonic_step<<<blocks, threads>>>(output, N, pairs, k, k / 2, true);
        for (unsigned long long j = k / 4; j >= 1; j >>= 1)
            bitonic_step<<<blocks, threads>>>(output, N, pairs, k, j, false);
    }
}
