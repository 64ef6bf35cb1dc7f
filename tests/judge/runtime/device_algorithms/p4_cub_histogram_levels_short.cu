// verdict: WA. num_levels = num_bins makes num_bins - 1 bins, each wider than one key.
#include <cub/device/device_histogram.cuh>

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    cudaMemset(histogram, 0, num_bins * sizeof(int));
    size_t temp_bytes = 0;
    cub::DeviceHistogram::HistogramEven(nullptr, temp_bytes, input, histogram, num_bins, 0, num_bins, N);
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceHistogram::HistogramEven(d_temp, temp_bytes, input, histogram, num_bins, 0, num_bins, N);
    cudaFree(d_temp);
}
