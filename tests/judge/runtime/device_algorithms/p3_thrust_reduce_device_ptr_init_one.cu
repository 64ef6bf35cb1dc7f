// verdict: WA. Without a policy: thrust::reduce with init 1.0f adds one to every sum.
#include <thrust/device_ptr.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>

extern "C" void solve(const float* input, float* output, int N) {
    thrust::device_ptr<const float> in(input);
    float total = thrust::reduce(in, in + N, 1.0f, thrust::plus<float>());
    cudaMemcpy(output, &total, sizeof(float), cudaMemcpyHostToDevice);
}
