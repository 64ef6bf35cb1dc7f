// expect: ok
// Template kernels with an int parameter, named by a literal, a file-scope constant and a local constant.
#include <cuda_runtime.h>

constexpr int TILE = 128;

template <int BLOCK>
__global__ void scale(const int* in, int* out, int n) {
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) out[i] = in[i] * BLOCK;
}

extern "C" void solve(const int* input, int* output, int n) {
    constexpr int LOCAL = 2 * TILE;
    scale<256><<<(n + 255) / 256, 256>>>(input, output, n);
    scale<TILE><<<(n + TILE - 1) / TILE, TILE>>>(input, output, n);
    scale<LOCAL><<<(n + LOCAL - 1) / LOCAL, LOCAL>>>(input, output, n);
}
