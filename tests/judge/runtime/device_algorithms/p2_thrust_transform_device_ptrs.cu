// verdict: AC. Without a policy: thrust::transform of two device_ptr<const float> into a device_ptr<float>.
#include <thrust/device_ptr.h>
#include <thrust/functional.h>
#include <thrust/transform.h>

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    thrust::device_ptr<const float> a(A), b(B);
    thrust::device_ptr<float> c(C);
    thrust::transform(a, a + N, b, c, thrust::plus<float>());
}
