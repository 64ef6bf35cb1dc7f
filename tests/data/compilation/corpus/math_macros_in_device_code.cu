// expect: ok
// INFINITY, NAN, FLT_MAX and INT_MAX from the standard headers work in device code too.
#include <cuda_runtime.h>
#include <cmath>
#include <cfloat>
#include <climits>

__global__ void clamp_scan_seed(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float lowest = -INFINITY;
    float biggest = FLT_MAX;
    if (i < n) out[i] = (isnan(NAN) && lowest < biggest) ? min(in[i], INT_MAX) : 0;
}

extern "C" void solve(const int* input, int* output, int n) {
    clamp_scan_seed<<<(n + 255) / 256, 256>>>(input, output, n);
}
