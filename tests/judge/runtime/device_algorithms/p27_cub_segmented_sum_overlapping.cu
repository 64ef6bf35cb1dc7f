// verdict: WA. The end offsets run one item into the next row.
#include <cub/device/device_segmented_reduce.cuh>

__global__ void row_offsets(int* begins, int* ends, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        begins[r] = r * cols;
        ends[r] = r + 1 < rows ? (r + 1) * cols + 1 : (r + 1) * cols;
    }
}

extern "C" void solve(const float* matrix, float* row_sums, int rows, int cols) {
    int *begins, *ends;
    cudaMalloc(&begins, rows * sizeof(int));
    cudaMalloc(&ends, rows * sizeof(int));
    row_offsets<<<(rows + 255) / 256, 256>>>(begins, ends, rows, cols);
    size_t temp_bytes = 0;
    cub::DeviceSegmentedReduce::Sum(nullptr, temp_bytes, matrix, row_sums, rows, begins, ends);
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceSegmentedReduce::Sum(d_temp, temp_bytes, matrix, row_sums, rows, begins, ends);
    cudaFree(d_temp);
    cudaFree(ends);
    cudaFree(begins);
}
