// verdict: WA. The functor forgets to scale x by a.
#include <thrust/transform.h>
#include <thrust/execution_policy.h>

struct add_functor {
    __host__ __device__ float operator()(float x, float y) const { return x + y; }
};

extern "C" void solve(int n, float a, const float* x, float* y) {
    thrust::transform(thrust::device, x, x + n, y, y, add_functor());
}
