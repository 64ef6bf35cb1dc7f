// verdict: AC. Without a policy: thrust::copy_if with the input as its own stencil, device_ptr in and out.
#include <thrust/copy.h>
#include <thrust/device_ptr.h>

struct positive {
    __host__ __device__ bool operator()(float x) const { return x > 0.0f; }
};

extern "C" void solve(const float* A, int N, float* out) {
    thrust::device_ptr<const float> a(A);
    thrust::device_ptr<float> kept(out);
    thrust::copy_if(a, a + N, a, kept, positive());
}
