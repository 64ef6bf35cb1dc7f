// verdict: WA. A leaky ReLU: negative inputs come out as 0.01 x, not 0.
#include <thrust/transform.h>
#include <thrust/execution_policy.h>

template <class T>
struct LeakyRelu {
    __host__ __device__ T operator()(T x) const { return x > T(0) ? x : T(0.01) * x; }
};

extern "C" void solve(const float* input, float* output, int N) {
    thrust::transform(thrust::device, input, input + N, output, LeakyRelu<float>());
}
