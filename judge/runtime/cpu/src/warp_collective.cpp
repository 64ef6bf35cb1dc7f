#include "warp_collective.h"

#include <cstdint>

namespace cudajudge::detail {

namespace {

int segment_width(int width) { return (width >= 1 && width <= 32 && (width & (width - 1)) == 0) ? width : 32; }

// The lane whose value `lane` reads, following CUDA: a source outside the lane's segment
// (or, for xor, in a later segment) yields the lane's own value.
int shuffle_source(WarpOp op, int lane, int arg, int width) {
    const int w = segment_width(width);
    const int start = lane & ~(w - 1);
    const int offset = lane - start;
    switch (op) {
        case WarpOp::shfl_idx: return start + (arg & (w - 1));
        case WarpOp::shfl_up: return (arg >= 0 && offset >= arg) ? lane - arg : lane;
        case WarpOp::shfl_down: return (arg >= 0 && offset + arg < w) ? lane + arg : lane;
        case WarpOp::shfl_xor: {
            int source = lane ^ arg;
            return (source >= 0 && source < start + w) ? source : lane;
        }
        default: return lane;
    }
}

template <class T, class Fold>
unsigned long long fold32(const ThreadSlot* warp, unsigned int lanes, Fold fold) {
    bool first = true;
    T acc{};
    for (unsigned int rest = lanes; rest; rest &= rest - 1) {
        T v = static_cast<T>(static_cast<uint32_t>(warp[__builtin_ctz(rest)].value));
        acc = first ? v : fold(acc, v);
        first = false;
    }
    return static_cast<uint32_t>(acc);
}

unsigned long long reduce(const ThreadSlot* warp, unsigned int lanes, WarpOp op) {
    switch (op) {
        case WarpOp::reduce_add: return fold32<uint32_t>(warp, lanes, [](uint32_t a, uint32_t b) { return a + b; });
        case WarpOp::reduce_and: return fold32<uint32_t>(warp, lanes, [](uint32_t a, uint32_t b) { return a & b; });
        case WarpOp::reduce_or: return fold32<uint32_t>(warp, lanes, [](uint32_t a, uint32_t b) { return a | b; });
        case WarpOp::reduce_xor: return fold32<uint32_t>(warp, lanes, [](uint32_t a, uint32_t b) { return a ^ b; });
        case WarpOp::reduce_min_unsigned: return fold32<uint32_t>(warp, lanes, [](uint32_t a, uint32_t b) { return a < b ? a : b; });
        case WarpOp::reduce_max_unsigned: return fold32<uint32_t>(warp, lanes, [](uint32_t a, uint32_t b) { return a > b ? a : b; });
        case WarpOp::reduce_min_signed: return fold32<int32_t>(warp, lanes, [](int32_t a, int32_t b) { return a < b ? a : b; });
        case WarpOp::reduce_max_signed: return fold32<int32_t>(warp, lanes, [](int32_t a, int32_t b) { return a > b ? a : b; });
        default: return 0;
    }
}

}  // namespace

void exchange_in_warp(ThreadSlot* warp, unsigned int lanes) {
    const WarpOp op = warp[__builtin_ctz(lanes)].op;
    unsigned int votes = 0;
    for (unsigned int rest = lanes; rest; rest &= rest - 1) {
        int lane = __builtin_ctz(rest);
        if (warp[lane].value) votes |= 1u << lane;
    }
    for (unsigned int rest = lanes; rest; rest &= rest - 1) {
        const int lane = __builtin_ctz(rest);
        ThreadSlot& slot = warp[lane];
        switch (op) {
            case WarpOp::sync: slot.result = 0; break;
            case WarpOp::shfl_idx:
            case WarpOp::shfl_up:
            case WarpOp::shfl_down:
            case WarpOp::shfl_xor: {
                int source = shuffle_source(op, lane, slot.arg, slot.width);
                // Reading a lane outside the mask is undefined in CUDA; the lane keeps its own value.
                slot.result = (lanes >> source & 1u) ? warp[source].value : slot.value;
                break;
            }
            case WarpOp::ballot: slot.result = votes; break;
            case WarpOp::any: slot.result = votes != 0; break;
            case WarpOp::all: slot.result = votes == lanes; break;
            case WarpOp::match_any: {
                unsigned int same = 0;
                for (unsigned int others = lanes; others; others &= others - 1) {
                    int other = __builtin_ctz(others);
                    if (warp[other].value == slot.value) same |= 1u << other;
                }
                slot.result = same;
                break;
            }
            case WarpOp::match_all: {
                bool all_same = true;
                for (unsigned int others = lanes; others; others &= others - 1)
                    all_same = all_same && warp[__builtin_ctz(others)].value == slot.value;
                slot.result = all_same ? lanes : 0;
                break;
            }
            default: slot.result = reduce(warp, lanes, op); break;
        }
    }
}

}  // namespace cudajudge::detail
