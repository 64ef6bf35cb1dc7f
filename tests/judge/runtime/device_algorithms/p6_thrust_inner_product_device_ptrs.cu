// verdict: AC. Without a policy: thrust::inner_product of two device_ptr<const float> from 0.0f.
#include <thrust/device_ptr.h>
#include <thrust/inner_product.h>

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    thrust::device_ptr<const float> a(A), b(B);
    float dot = thrust::inner_product(a, a + N, b, 0.0f);
    cudaMemcpy(result, &dot, sizeof(float), cudaMemcpyHostToDevice);
}
