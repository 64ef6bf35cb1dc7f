// expect: ok
// "<<<" inside comments and strings is not a launch: kernel<<<1, 1>>>(x);
#include <cuda_runtime.h>
#include <cstdio>

/* k<<<grid, block>>>(args) in a block comment */
__global__ void mark(int* out, int n) {
    if (threadIdx.x == 0 && blockIdx.x == 0 && n > 0) out[0] = 1;
    if (n < 0) printf("never <<<%d>>>\n", n);
}

extern "C" void solve(const int* input, int* output, int n) {
    (void)input;
    const char* text = "mark<<<1, 1>>>(output, n);";
    if (n < 0) printf("%s\n", text);
    mark<<<1, 32>>>(output, n);  // mark<<<2, 2>>>(output, n);
}
