// expect: CE
// what: unbounded template instantiation
#include <cuda_runtime.h>
template <int N> struct Bomb { static constexpr long long value = Bomb<N - 1>::value + Bomb<N - 2>::value + Bomb<N - 3>::value; };
template <> struct Bomb<0> { static constexpr long long value = 1; };
template <> struct Bomb<1> { static constexpr long long value = 1; };
template <> struct Bomb<2> { static constexpr long long value = 1; };
template <int D> struct Deep { static constexpr long long value = Deep<D + 1>::value + Bomb<D % 40>::value; };
__global__ void k(long long* out) { out[0] = Deep<0>::value; }
extern "C" void solve(const float* input, float* output, int N) { k<<<1, 1>>>((long long*)output); }
