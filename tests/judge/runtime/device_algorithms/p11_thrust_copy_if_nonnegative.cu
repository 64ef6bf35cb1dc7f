// verdict: WA. The predicate keeps zeros too (x >= 0), which the problem drops.
#include <thrust/copy.h>
#include <thrust/execution_policy.h>

struct nonnegative {
    __host__ __device__ bool operator()(float x) const { return x >= 0.0f; }
};

extern "C" void solve(const float* A, int N, float* out) {
    thrust::copy_if(thrust::device, A, A + N, out, nonnegative());
}
