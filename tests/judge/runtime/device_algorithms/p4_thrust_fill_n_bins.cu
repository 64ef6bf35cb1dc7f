// verdict: AC. thrust::fill_n on a device_ptr clears the bins, a kernel counts with atomicAdd.
#include <thrust/device_ptr.h>
#include <thrust/fill.h>

__global__ void count_keys(const int* keys, int* bins, int n, int num_bins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && keys[i] >= 0 && keys[i] < num_bins) atomicAdd(&bins[keys[i]], 1);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    thrust::fill_n(thrust::device_pointer_cast(histogram), num_bins, 0);
    count_keys<<<(N + 255) / 256, 256>>>(input, histogram, N, num_bins);
}
