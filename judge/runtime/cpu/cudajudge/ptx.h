// What inline PTX stands for on the CPU backend: judge/source/inline_ptx.py translates `asm`
// statements into C++ that calls these.
#pragma once

#include <chrono>
#include <cstring>
#include <type_traits>

namespace cudajudge::ptx {

inline unsigned int linear_thread() {
    return threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
}
inline unsigned int laneid() { return linear_thread() % 32u; }
inline unsigned int warpid() { return linear_thread() / 32u; }
inline unsigned long long globaltimer() {
    return static_cast<unsigned long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch()).count());
}
// %lanemask_lt, _le, _eq, _ge, _gt: the lanes below, up to, at, from and above this one.
inline unsigned int lanemask(int kind) {
    const unsigned int lane = laneid(), at = 1u << lane, below = at - 1u;
    switch (kind) {
        case 0: return below;
        case 1: return below | at;
        case 2: return at;
        case 3: return ~below;
        default: return ~(below | at);
    }
}
template <class T>
inline T absolute(T v) { return v < T(0) ? T(-v) : v; }

// PTX registers are untyped bits: a value of the instruction's type from an operand of another
// C++ type of the same size keeps its bits (`mov.b32 %0, %1` of a float); of another size it converts.
template <class To, class From>
inline To bits(From v) {
    if constexpr (sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<From> && !std::is_same_v<To, From>) {
        To out;
        std::memcpy(&out, &v, sizeof out);
        return out;
    } else {
        return static_cast<To>(v);
    }
}
template <class Out, class Value>
inline void assign(Out& out, Value v) { out = bits<std::remove_cv_t<Out>>(v); }

}  // namespace cudajudge::ptx
