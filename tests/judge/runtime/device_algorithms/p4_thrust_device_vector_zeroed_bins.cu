// verdict: AC. A thrust::device_vector of num_bins starts zeroed; a kernel counts into it, thrust::copy returns it.
#include <thrust/copy.h>
#include <thrust/device_vector.h>

__global__ void count_keys(const int* keys, int* bins, int n, int num_bins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && keys[i] >= 0 && keys[i] < num_bins) atomicAdd(&bins[keys[i]], 1);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    thrust::device_vector<int> bins(num_bins);
    count_keys<<<(N + 255) / 256, 256>>>(input, thrust::raw_pointer_cast(bins.data()), N, num_bins);
    thrust::copy(bins.begin(), bins.end(), thrust::device_pointer_cast(histogram));
}
