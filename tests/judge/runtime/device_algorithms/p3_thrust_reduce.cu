// verdict: AC. thrust::reduce on raw device pointers with thrust::device.
#include <thrust/reduce.h>
#include <thrust/execution_policy.h>

extern "C" void solve(const float* input, float* output, int N) {
    float total = thrust::reduce(thrust::device, input, input + N, 0.0f);
    cudaMemcpy(output, &total, sizeof(float), cudaMemcpyHostToDevice);
}
