#include <cuda_runtime.h>

// Top-p cutoff: probs[0..N-1] are sorted in descending order and add up to 1.
// Write to cutoff[0] the smallest k >= 1 with probs[0] + ... + probs[k-1] >= p.
// cutoff is a device pointer to ONE int; it is not zeroed for you.
//
// This starter returns 1 (right only when the largest probability alone reaches p).
// To finish it:
//   - the answer is 1 + (how many inclusive prefix sums are still below p): a scan, then a count;
//   - one block can walk the array in chunks of blockDim.x, carrying the sum of the chunks
//     before (warp scans with __shfl_up_sync; __syncthreads_count counts a condition over the
//     block);
//   - for large N, let many blocks sum tiles first, then search the tile sums, then one tile.
// Every partial sum is exact here (the inputs are multiples of 2^-20), so any order is fine.

__global__ void top_p_cutoff(const float* probs, int* cutoff, int N, float p) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *cutoff = 1;   // TODO: find the first prefix sum that reaches p
    }
}

extern "C" void solve(const float* probs, int* cutoff, int N, float p) {
    top_p_cutoff<<<1, 256>>>(probs, cutoff, N, p);
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
