// verdict: WA. thrust::inclusive_scan where the problem asks for the exclusive scan.
#include <thrust/scan.h>
#include <thrust/execution_policy.h>

extern "C" void solve(const int* input, int* output, int n) {
    thrust::inclusive_scan(thrust::device, input, input + n, output);
}
