// Warp-aggregated atomics: a warp finds out with one __ballot_sync which of its lanes keep their
// element; lane 0 reserves all of the warp's slots with a single atomicAdd of __popc(ballot),
// broadcasts the first slot with __shfl_sync, and each keeping lane writes at
// first + (number of keeping lanes below it). Global atomics drop to at most one per warp and
// step, and the elements of one warp stay together in the output.
// Grid-stride loop over whole warps: every lane runs the same number of iterations, so the
// full-mask ballot and shuffle always have all 32 lanes present.
#include <cuda_runtime.h>

constexpr unsigned kFull = 0xffffffffu;
constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
compact_warp_aggregated(const float* __restrict__ input, float* __restrict__ output, int* count, int n) {
    const int lane = threadIdx.x & 31;
    const unsigned lower_lanes = (1u << lane) - 1u;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long base = (long long)blockIdx.x * blockDim.x; base < n; base += stride) {
        const long long i = base + threadIdx.x;
        const float v = i < n ? input[i] : 0.0f;
        const bool keep = v > 0.0f;
        const unsigned mask = __ballot_sync(kFull, keep);
        if (mask == 0) continue;                       // the same decision in every lane
        int first = 0;
        if (lane == 0) first = atomicAdd(count, __popc(mask));
        first = __shfl_sync(kFull, first, 0);
        if (keep) output[first + __popc(mask & lower_lanes)] = v;
    }
}

extern "C" void solve(const float* input, float* output, int* count, int n) {
    static int max_blocks = 0;                         // enough blocks to fill the GPU a few times
    if (max_blocks == 0) {
        int sms = 0;
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0) sms = 132;
        max_blocks = sms * 16;
    }
    int blocks = (n + kThreads - 1) / kThreads;
    if (blocks > max_blocks) blocks = max_blocks;
    compact_warp_aggregated<<<blocks, kThreads>>>(input, output, count, n);
}
