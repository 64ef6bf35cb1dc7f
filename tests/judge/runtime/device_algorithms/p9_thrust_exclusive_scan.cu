// verdict: WA. thrust::exclusive_scan: every prefix is one item short.
#include <thrust/scan.h>
#include <thrust/execution_policy.h>

extern "C" void solve(const float* input, float* output, int N) {
    thrust::exclusive_scan(thrust::device, input, input + N, output);
}
