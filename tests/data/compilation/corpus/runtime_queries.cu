// expect: ok
// The supported queries: device properties and attributes, occupancy, and a larger shared-memory limit.
#include <cuda_runtime.h>

__global__ void big_tile(const int* in, int* out, int n) {
    extern __shared__ int tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    if (i < n) out[i] = tile[threadIdx.x];
}

extern "C" void solve(const int* input, int* output, int n) {
    int device = 0, sms = 0, min_grid = 0, block = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaFuncSetAttribute(big_tile, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
    cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, big_tile, 64 * 1024);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, big_tile, 256, 64 * 1024);
    if (block <= 0 || block > prop.maxThreadsPerBlock) block = 256;
    big_tile<<<(n + block - 1) / block, block, 64 * 1024>>>(input, output, n);
    if (cudaPeekAtLastError() != cudaSuccess) return;
    cudaGetLastError();
}
