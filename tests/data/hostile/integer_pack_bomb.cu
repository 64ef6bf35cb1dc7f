// expect: CE
// message: compilation exceeded its
// what: an __integer_pack bomb
#include <cuda_runtime.h>
#include <utility>
// g++ builds std::make_integer_sequence with __integer_pack: one pack of 2^26 template arguments.
template <int... I> constexpr int count(std::integer_sequence<int, I...>) { return sizeof...(I); }
extern "C" void solve(const float* input, float* output, int N) {
    static_assert(count(std::make_integer_sequence<int, 1 << 26>{}) > 0, "");
}
