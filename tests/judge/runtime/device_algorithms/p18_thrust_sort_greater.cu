// verdict: WA. thrust::greater sorts in descending order.
#include <thrust/sort.h>
#include <thrust/functional.h>
#include <thrust/execution_policy.h>

extern "C" void solve(float* data, int N) {
    thrust::sort(thrust::device, data, data + N, thrust::greater<float>());
}
