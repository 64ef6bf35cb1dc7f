// verdict: WA. thrust::count of the value 0 counts the items dropped, not kept.
#include <thrust/count.h>
#include <thrust/execution_policy.h>

__global__ void positive(const float* a, int* flags, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) flags[i] = a[i] > 0.0f ? 1 : 0;
}

__global__ void compact(const float* a, float* out, int* slot, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && a[i] > 0.0f) out[atomicAdd(slot, 1)] = a[i];
}

extern "C" void solve(const float* input, float* output, int* count, int n) {
    int *flags, *slot;
    cudaMalloc(&flags, n * sizeof(int));
    cudaMalloc(&slot, sizeof(int));
    cudaMemset(slot, 0, sizeof(int));
    positive<<<(n + 255) / 256, 256>>>(input, flags, n);
    int kept = (int)thrust::count(thrust::device, flags, flags + n, 0);
    compact<<<(n + 255) / 256, 256>>>(input, output, slot, n);
    cudaMemcpy(count, &kept, sizeof(int), cudaMemcpyHostToDevice);
    cudaFree(slot);
    cudaFree(flags);
}
