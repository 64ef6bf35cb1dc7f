// expect: CE
// what: a device array of 16 GiB with an initializer
#include <cuda_runtime.h>
__device__ char huge[1ull << 34] = {1};
__global__ void k(float* out) { out[0] = huge[0]; }
extern "C" void solve(const float* input, float* output, int N) { k<<<1, 1>>>(output); }
