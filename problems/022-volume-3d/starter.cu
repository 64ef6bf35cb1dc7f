#include <cuda_runtime.h>

// 7-point max filter: output at (x, y, z) = the maximum of input at (x, y, z) and at its six face
// neighbours (x±1, y, z), (x, y±1, z), (x, y, z±1); neighbours outside the volume are clamped
// onto the volume (so they change nothing). Voxel (x, y, z) is element (z*ny + y)*nx + x.
// input and output are device pointers; output is NOT zeroed for you.
//
// This starter launches a 3-D grid but only copies each voxel. Also beware: nx*ny*nz can exceed
// 2^31, so compute the linear index in size_t, not int.
__global__ void max_filter_3d(const float* input, float* output, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz) {
        size_t i = ((size_t)z * ny + y) * nx + x;
        output[i] = input[i];   // TODO: the maximum over the voxel and its (existing) 6 neighbours
    }
}

extern "C" void solve(const float* input, float* output, int nx, int ny, int nz) {
    dim3 block(32, 4, 4);   // 512 threads; x is the contiguous axis
    dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y, (nz + block.z - 1) / block.z);
    max_filter_3d<<<grid, block>>>(input, output, nx, ny, nz);
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
