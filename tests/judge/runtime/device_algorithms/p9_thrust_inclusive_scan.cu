// verdict: AC. thrust::inclusive_scan with thrust::device.
#include <thrust/scan.h>
#include <thrust/execution_policy.h>

extern "C" void solve(const float* input, float* output, int N) {
    thrust::inclusive_scan(thrust::device, input, input + N, output);
}
