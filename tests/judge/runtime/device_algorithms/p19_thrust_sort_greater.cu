// verdict: AC. thrust::copy to scratch, thrust::sort with thrust::greater<float>, the first k.
#include <thrust/copy.h>
#include <thrust/sort.h>
#include <thrust/functional.h>
#include <thrust/execution_policy.h>

extern "C" void solve(const float* input, float* output, int N, int k) {
    float* scratch;
    cudaMalloc(&scratch, N * sizeof(float));
    thrust::copy(thrust::device, input, input + N, scratch);
    thrust::sort(thrust::device, scratch, scratch + N, thrust::greater<float>());
    cudaMemcpy(output, scratch, k * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(scratch);
}
