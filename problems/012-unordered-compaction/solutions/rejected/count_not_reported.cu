// expect: WA
// Mistake: reserves the slots on a private scratch counter and compacts correctly, but never stores the total in count[0], which stays 0.
#include <cuda_runtime.h>

constexpr unsigned kFull = 0xffffffffu;

__global__ void compact(const float* input, float* output, int* cursor, int n) {
    const int lane = threadIdx.x & 31;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float v = i < n ? input[i] : 0.0f;
    const unsigned mask = __ballot_sync(kFull, v > 0.0f);
    int first = 0;
    if (lane == 0 && mask != 0) first = atomicAdd(cursor, __popc(mask));
    first = __shfl_sync(kFull, first, 0);
    if (v > 0.0f) output[first + __popc(mask & ((1u << lane) - 1u))] = v;
}

extern "C" void solve(const float* input, float* output, int* count, int n) {
    int* cursor = nullptr;
    cudaMalloc(&cursor, sizeof(int));
    cudaMemset(cursor, 0, sizeof(int));
    const int threads = 256;
    compact<<<(n + threads - 1) / threads, threads>>>(input, output, cursor, n);
    // BUG: missing cudaMemcpy(count, cursor, sizeof(int), cudaMemcpyDeviceToDevice);
    cudaFree(cursor);
}
