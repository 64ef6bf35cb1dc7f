// Naive but correct: a bitonic sorting network run directly on data in global memory, one kernel
// launch per compare-exchange step, one thread per compared pair (O(N log^2 N) work).
//
// Any N: the network is built for P = next power of two >= N, and the keys N..P-1 are imagined
// to be +infinity. Every comparator here puts the smaller value at the lower index (each merge
// starts with a "mirror" step that compares i with i ^ (k - 1), instead of using descending
// comparators), so a comparator whose partner is one of the imagined keys would never move
// anything: it is skipped, and no memory past N is ever touched.
#include <cuda_runtime.h>

__global__ void bitonic_step(float* a, int n, unsigned long long pairs, unsigned long long k,
                             unsigned long long j, bool mirror) {
    const unsigned long long p = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= pairs) return;
    const unsigned long long i = (p / j) * (2 * j) + (p % j);
    const unsigned long long l = mirror ? (i ^ (k - 1)) : (i + j);
    if (l >= (unsigned long long)n) return;
    const float x = a[i], y = a[l];
    if (x > y) { a[i] = y; a[l] = x; }       // -0.0 > 0.0 is false: equal zeros stay put
}

extern "C" void solve(float* data, int N) {
    unsigned long long P = 1;
    while (P < (unsigned long long)N) P <<= 1;
    const unsigned long long pairs = P / 2;
    const int threads = 256;
    const unsigned int blocks = (unsigned int)((pairs + threads - 1) / threads);
    for (unsigned long long k = 2; k <= P; k <<= 1) {
        bitonic_step<<<blocks, threads>>>(data, N, pairs, k, k / 2, true);
        for (unsigned long long j = k / 4; j >= 1; j >>= 1)
            bitonic_step<<<blocks, threads>>>(data, N, pairs, k, j, false);
    }
}
