// What inline PTX's special registers read on the CPU backend (judge/build/cpu_ptx.py translates
// `asm` statements into calls of these).
#pragma once

#include <chrono>

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

}  // namespace cudajudge::ptx
