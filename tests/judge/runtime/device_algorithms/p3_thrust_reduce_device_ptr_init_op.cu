// verdict: AC. Without a policy: thrust::reduce of a device_ptr<const float> with an init and thrust::plus.
#include <thrust/device_ptr.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>

extern "C" void solve(const float* input, float* output, int N) {
    thrust::device_ptr<const float> in(input);
    float total = thrust::reduce(in, in + N, 0.0f, thrust::plus<float>());
    cudaMemcpy(output, &total, sizeof(float), cudaMemcpyHostToDevice);
}
