// expect: builds
#include <cuda_runtime.h>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

template <class T>
__device__ T relu(T x) {
    static_assert(cuda::std::is_floating_point<T>::value, "floats only");
    return x > T(0) ? x : T(0);
}

__global__ void relu_kernel(const float* input, float* output, cuda::std::int32_t N) {
    cuda::std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    float lowest = cuda::std::numeric_limits<float>::lowest();
    if (i < static_cast<cuda::std::uint32_t>(N)) output[i] = relu(input[i] < lowest ? lowest : input[i]);
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
