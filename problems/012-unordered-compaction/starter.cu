#include <cuda_runtime.h>

// Unordered stream compaction: put every element of input that is > 0 into output[0 .. K-1],
// in ANY order, and set count[0] = K. count[0] is 0 when solve() is called (the judge zero-fills
// it); output is not zeroed, and what you leave after output[K-1] is not checked.
//
// This starter only counts. To finish it, every kept element needs a slot of its own:
//   - simplest: int slot = atomicAdd(count, 1); output[slot] = v;
//   - faster: let a whole warp reserve its slots with ONE atomicAdd:
//       unsigned mask = __ballot_sync(0xffffffff, keep);   // which lanes keep their element
//       lane 0: first = atomicAdd(count, __popc(mask));    then __shfl_sync first to all lanes
//       slot = first + __popc(mask & ((1u << lane) - 1));  // keeping lanes below me

__global__ void compact_kernel(const float* input, float* output, int* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && input[i] > 0.0f) {
        atomicAdd(count, 1);
        // TODO: write input[i] to a reserved slot of output
    }
}

extern "C" void solve(const float* input, float* output, int* count, int n) {
    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    compact_kernel<<<blocks, threads>>>(input, output, count, n);
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
