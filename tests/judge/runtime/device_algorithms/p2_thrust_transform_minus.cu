// verdict: WA. thrust::minus where the problem adds.
#include <thrust/functional.h>
#include <thrust/transform.h>
#include <thrust/execution_policy.h>

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    thrust::transform(thrust::device, A, A + N, B, C, thrust::minus<float>());
}
