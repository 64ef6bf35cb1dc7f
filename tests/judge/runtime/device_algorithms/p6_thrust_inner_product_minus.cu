// verdict: WA. thrust::inner_product with thrust::minus as the pairs' operator sums A - B, not A * B.
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/inner_product.h>

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    float dot = thrust::inner_product(thrust::device, A, A + N, B, 0.0f, thrust::plus<float>(), thrust::minus<float>());
    cudaMemcpy(result, &dot, sizeof(float), cudaMemcpyHostToDevice);
}
