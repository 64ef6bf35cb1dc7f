// expect: ok
// Modern C++ on both sides: lambdas, if constexpr, variadic templates, attributes, alignas, decltype.
#include <cuda_runtime.h>
#include <type_traits>
#include <utility>

struct alignas(16) Pair {
    int first, second;
    __host__ __device__ constexpr int sum() const { return first + second; }
};

template <typename T>
__device__ __forceinline__ T clamp_low(T v, T low) {
    if constexpr (sizeof(T) == 4) return v < low ? low : v;
    else return v;
}

template <typename... Args>
__device__ int count_args(Args... args) { return static_cast<int>(sizeof...(args)); }

__global__ void apply(const int* __restrict__ in, int* __restrict__ out, int n) {
    auto twice = [](int v) { return 2 * v; };
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Pair p{in[i], count_args(1, 2.0f, 'c')};
    out[i] = clamp_low(twice(p.sum()), 0);
}

[[nodiscard]] static int blocks_for(int n, int block) noexcept { return (n + block - 1) / block; }

extern "C" void solve(const int* input, int* output, int n) {
    auto launch = [&](int block) {
        apply<<<blocks_for(n, block), block>>>(input, output, n);
    };
    using Block = std::integral_constant<int, 256>;
    decltype(n) block = Block::value;
    launch(block);
    auto [a, b] = std::make_pair(1, 2);
    (void)a; (void)b;
}
