// expect: CE
// message: cudaMallocManaged
// what: a CUDA runtime call outside the supported subset
#include <cuda_runtime.h>
extern "C" void solve(const float* input, float* output, int N) {
    float* p = nullptr;
    cudaMallocManaged(&p, 16);
}
