// expect: ok
// Host helper functions, a recursive host function and host-only standard library use.
#include <cuda_runtime.h>
#include <vector>
#include <algorithm>

__global__ void add_offset(int* data, int n, int offset) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += offset;
}

static int levels(int n, int fanout) { return n <= 1 ? 0 : 1 + levels((n + fanout - 1) / fanout, fanout); }

static void copy_input(const int* input, int* output, int n) {
    cudaMemcpy(output, input, n * sizeof(int), cudaMemcpyDeviceToDevice);
}

extern "C" void solve(const int* input, int* output, int n) {
    copy_input(input, output, n);
    std::vector<int> offsets(levels(n, 256) + 1);
    std::fill(offsets.begin(), offsets.end(), 1);
    for (int offset : offsets) add_offset<<<(n + 255) / 256, 256>>>(output, n, std::max(offset, 0));
}
