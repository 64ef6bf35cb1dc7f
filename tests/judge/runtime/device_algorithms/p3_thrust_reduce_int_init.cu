// verdict: WA. thrust::reduce seeded with the int 0 accumulates in int: every partial sum is truncated.
#include <thrust/reduce.h>
#include <thrust/execution_policy.h>

extern "C" void solve(const float* input, float* output, int N) {
    float total = thrust::reduce(thrust::device, input, input + N, 0);
    cudaMemcpy(output, &total, sizeof(float), cudaMemcpyHostToDevice);
}
