// expect: error "solve must have C linkage"
#include <cuda_runtime.h>

void solve(const int* input, int* output, int n) {  // <- error
    cudaMemcpy(output, input, n * sizeof(int), cudaMemcpyDeviceToDevice);
}
