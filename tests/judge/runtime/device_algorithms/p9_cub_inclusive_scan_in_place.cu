// verdict: AC. Copy, then cub::DeviceScan::InclusiveScan with cuda::std::plus<> in place.
#include <cub/cub.cuh>
#include <cuda/std/functional>

extern "C" void solve(const float* input, float* output, int N) {
    cudaMemcpy(output, input, N * sizeof(float), cudaMemcpyDeviceToDevice);
    size_t temp_bytes = 0;
    cub::DeviceScan::InclusiveScan(nullptr, temp_bytes, output, output, cuda::std::plus<>{}, N);
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceScan::InclusiveScan(d_temp, temp_bytes, output, output, cuda::std::plus<>{}, N);
    cudaFree(d_temp);
}
