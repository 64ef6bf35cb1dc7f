// verdict: AC. Without a policy: thrust::exclusive_scan of a device_ptr<const int> with an init of 0.
#include <thrust/device_ptr.h>
#include <thrust/scan.h>

extern "C" void solve(const int* input, int* output, int n) {
    thrust::device_ptr<const int> first(input);
    thrust::device_ptr<int> result(output);
    thrust::exclusive_scan(first, first + n, result, 0);
}
