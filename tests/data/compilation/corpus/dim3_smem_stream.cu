// expect: ok
// Launches with dim3 grids and blocks, dynamic shared memory and a stream.
#include <cuda_runtime.h>

__global__ void tile_copy(const int* in, int* out, int rows, int cols) {
    extern __shared__ int tile[];
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    tile[t] = (r < rows && c < cols) ? in[r * cols + c] : 0;
    __syncthreads();
    if (r < rows && c < cols) out[r * cols + c] = tile[t];
}

extern "C" void solve(const int* input, int* output, int n) {
    dim3 block(32, 8);
    dim3 grid((n + 31) / 32, 1);
    cudaStream_t stream = 0;
    tile_copy<<<grid, block, block.x * block.y * sizeof(int), stream>>>(input, output, 1, n);
    tile_copy<<<dim3(grid.x, 1, 1), dim3(32, 8, 1), 32 * 8 * sizeof(int), cudaStreamPerThread>>>(input, output, 1, n);
    cudaStreamSynchronize(stream);
}
