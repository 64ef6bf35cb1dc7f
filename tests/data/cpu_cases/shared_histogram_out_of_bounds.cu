// A block-private histogram in dynamic shared memory with one of four out-of-bounds writes,
// chosen by VARIANT (the test defines it): 1 sizes the shared memory in elements, not bytes;
// 2 range-checks with <=; 3 does not range-check at all (keys below 0 or >= num_bins);
// 4 writes a gigabyte past the array (a fault).
#include <cuda_runtime.h>

__global__ void histogram_shared(const int* input, int* histogram, int N, int num_bins) {
    extern __shared__ int bins[];
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x) {
        const int key = input[i];
#if VARIANT == 2
        if (key >= 0 && key <= num_bins) atomicAdd(&bins[key], 1);
#elif VARIANT == 3
        atomicAdd(&bins[key], 1);
#elif VARIANT == 4
        if (key >= 0 && key < num_bins) bins[key + (1 << 28)] = 1;   // the faulting line
#else
        if (key >= 0 && key < num_bins) atomicAdd(&bins[key], 1);
#endif
    }
    __syncthreads();
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x)
        if (b < num_bins && bins[b]) atomicAdd(&histogram[b], bins[b]);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
#if VARIANT == 1
    const size_t shared = (size_t)num_bins;
#else
    const size_t shared = (size_t)num_bins * sizeof(int);
#endif
    histogram_shared<<<64, 256, shared>>>(input, histogram, N, num_bins);
}
