// expect: WA
// Mistake: warp-aggregated atomics that write at first slot + LANE instead of first slot + rank among the keeping lanes: elements of one warp land on top of the next warp's slots and leave holes, unless the keeping lanes happen to be lanes 0, 1, 2, ...
#include <cuda_runtime.h>

constexpr unsigned kFull = 0xffffffffu;

__global__ void compact(const float* input, float* output, int* count, int n) {
    const int lane = threadIdx.x & 31;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float v = i < n ? input[i] : 0.0f;
    const unsigned mask = __ballot_sync(kFull, v > 0.0f);
    int first = 0;
    if (lane == 0 && mask != 0) first = atomicAdd(count, __popc(mask));
    first = __shfl_sync(kFull, first, 0);
    if (v > 0.0f) output[first + lane] = v;   // BUG: should be __popc(mask & ((1u << lane) - 1))
}

extern "C" void solve(const float* input, float* output, int* count, int n) {
    const int threads = 256;
    compact<<<(n + threads - 1) / threads, threads>>>(input, output, count, n);
}
