// verdict: AC. thrust::transform with a functor of one's own.
#include <thrust/transform.h>
#include <thrust/execution_policy.h>

struct Relu {
    __host__ __device__ float operator()(float x) const { return x > 0.0f ? x : 0.0f; }
};

extern "C" void solve(const float* input, float* output, int N) {
    thrust::transform(thrust::device, input, input + N, output, Relu());
}
