// verdict: WA. count_if counts x >= 0 while copy_if keeps x > 0: the count is off by the zeros.
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/execution_policy.h>

struct is_positive {
    __host__ __device__ bool operator()(float x) const { return x > 0.0f; }
};
struct is_nonnegative {
    __host__ __device__ bool operator()(float x) const { return x >= 0.0f; }
};

extern "C" void solve(const float* input, float* output, int* count, int n) {
    int kept = static_cast<int>(thrust::count_if(thrust::device, input, input + n, is_nonnegative()));
    thrust::copy_if(thrust::device, input, input + n, output, is_positive());
    cudaMemcpy(count, &kept, sizeof(int), cudaMemcpyHostToDevice);
}
