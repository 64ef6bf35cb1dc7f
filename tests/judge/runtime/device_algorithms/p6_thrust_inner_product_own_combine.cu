// verdict: AC. thrust::inner_product with thrust::plus and a product functor of one's own.
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/inner_product.h>

struct product {
    __host__ __device__ float operator()(float a, float b) const { return a * b; }
};

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    float dot = thrust::inner_product(thrust::device, A, A + N, B, 0.0f, thrust::plus<float>(), product());
    cudaMemcpy(result, &dot, sizeof(float), cudaMemcpyHostToDevice);
}
