#include <cuda_runtime.h>

// Grayscale: for every pixel, gray = round-half-up(0.299 R + 0.587 G + 0.114 B), e.g.
//   (unsigned char)(0.299f * r + 0.587f * g + 0.114f * b + 0.5f)
// rgb holds width*height pixels of 3 bytes (R, G, B), row by row; gray holds width*height bytes.
// Both are device pointers; gray is NOT zeroed for you.
//
// This starter launches a 2-D grid of 32 x 8 blocks but only copies the red channel.
__global__ void rgb_to_gray(const unsigned char* rgb, unsigned char* gray, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;   // column
    int y = blockIdx.y * blockDim.y + threadIdx.y;   // row
    if (x < width && y < height) {                   // the grid is rounded up: guard both edges
        int i = y * width + x;
        gray[i] = rgb[3 * i];                        // TODO: the weighted sum of R, G and B, rounded
    }
}

extern "C" void solve(const unsigned char* rgb, unsigned char* gray, int width, int height) {
    dim3 block(32, 8);
    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    rgb_to_gray<<<grid, block>>>(rgb, gray, width, height);
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
