// verdict: AC. A kernel writes into a thrust::device_vector through raw_pointer_cast(&v[0]), thrust::copy returns it.
#include <thrust/device_vector.h>
#include <thrust/copy.h>

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

extern "C" void solve(const float* input, float* output, int N) {
    thrust::device_vector<float> scratch(N);
    relu<<<(N + 255) / 256, 256>>>(input, thrust::raw_pointer_cast(&scratch[0]), N);
    thrust::copy(scratch.begin(), scratch.end(), thrust::device_pointer_cast(output));
}
