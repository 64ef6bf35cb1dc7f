// verdict: WA. transform_reduce of x * x: the sum of squares, not the sum.
#include <thrust/transform_reduce.h>
#include <thrust/functional.h>
#include <thrust/execution_policy.h>

struct Square {
    __host__ __device__ float operator()(float x) const { return x * x; }
};

extern "C" void solve(const float* input, float* output, int N) {
    float total = thrust::transform_reduce(thrust::device, input, input + N, Square(), 0.0f, thrust::plus<float>());
    cudaMemcpy(output, &total, sizeof(float), cudaMemcpyHostToDevice);
}
