// verdict: AC. thrust::sort in place with thrust::device.
#include <thrust/sort.h>
#include <thrust/execution_policy.h>

extern "C" void solve(float* data, int N) {
    thrust::sort(thrust::device, data, data + N);
}
