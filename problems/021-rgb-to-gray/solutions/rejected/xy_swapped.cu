// expect: WA
// Width and height swapped in the grid size: blockIdx.x must count tiles along a row (width / 32) and blockIdx.y tiles down the columns (height / 8). With them swapped, a wide or tall image is only partly covered and the rest of gray is never written.
#include <cuda_runtime.h>

__global__ void rgb_to_gray(const uchar3* rgb, unsigned char* gray, int width, int height) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const size_t i = (size_t)y * width + x;
    const uchar3 p = rgb[i];
    gray[i] = (unsigned char)(0.299f * p.x + 0.587f * p.y + 0.114f * p.z + 0.5f);
}

extern "C" void solve(const unsigned char* rgb, unsigned char* gray, int width, int height) {
    const dim3 block(32, 8);
    const dim3 grid((height + block.x - 1) / block.x, (width + block.y - 1) / block.y);   // BUG: swapped
    rgb_to_gray<<<grid, block>>>(reinterpret_cast<const uchar3*>(rgb), gray, width, height);
}
