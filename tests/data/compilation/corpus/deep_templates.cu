// expect: error "excessive recursion"
// Runaway template recursion ends as a compile error with the user's line.
#include <cuda_runtime.h>

template <int N>
struct Depth {
    static constexpr int value = Depth<N + 1>::value + 1;  // <- error
};

__global__ void use(int* out) { out[0] = Depth<0>::value; }

extern "C" void solve(const int* input, int* output, int n) { use<<<1, 1>>>(output); }
