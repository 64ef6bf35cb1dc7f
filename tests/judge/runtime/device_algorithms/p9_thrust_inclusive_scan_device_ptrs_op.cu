// verdict: AC. Without a policy: thrust::inclusive_scan of a device_ptr<const float> with thrust::plus.
#include <thrust/device_ptr.h>
#include <thrust/functional.h>
#include <thrust/scan.h>

extern "C" void solve(const float* input, float* output, int N) {
    thrust::device_ptr<const float> in(input);
    thrust::device_ptr<float> out(output);
    thrust::inclusive_scan(in, in + N, out, thrust::plus<float>());
}
