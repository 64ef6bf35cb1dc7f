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

// Lanes with equal values share one mask; each group is found once (a lane-by-lane search read every
// other lane's slot again, 32 x 32 reads a call).
void match_any(ThreadSlot* warp, unsigned int lanes) {
    unsigned long long values[32];
    for (unsigned int rest = lanes; rest; rest &= rest - 1) values[__builtin_ctz(rest)] = warp[__builtin_ctz(rest)].value;
    for (unsigned int left = lanes; left;) {
        const unsigned long long value = values[__builtin_ctz(left)];
        unsigned int same = 0;
        for (unsigned int others = left; others; others &= others - 1)
            if (values[__builtin_ctz(others)] == value) same |= 1u << __builtin_ctz(others);
        for (unsigned int rest = same; rest; rest &= rest - 1) warp[__builtin_ctz(rest)].result = same;
        left &= ~same;
    }
}

}  // namespace

void exchange_in_warp(ThreadSlot* warp, unsigned int lanes) {
    const WarpOp op = warp[__builtin_ctz(lanes)].op;
    unsigned long long common = 0;   // the result every lane gets, for the ops that give all one
    switch (op) {
        case WarpOp::sync: break;
        case WarpOp::shfl_idx:
        case WarpOp::shfl_up:
        case WarpOp::shfl_down:
        case WarpOp::shfl_xor: {
            for (unsigned int rest = lanes; rest; rest &= rest - 1) {
                const int lane = __builtin_ctz(rest);
                ThreadSlot& slot = warp[lane];
                int source = shuffle_source(op, lane, slot.arg, slot.width);
                // Reading a lane outside the mask is undefined in CUDA; the lane keeps its own value.
                slot.result = (lanes >> source & 1u) ? warp[source].value : slot.value;
            }
            return;
        }
        case WarpOp::ballot:
        case WarpOp::any:
        case WarpOp::all: {
            unsigned int votes = 0;
            for (unsigned int rest = lanes; rest; rest &= rest - 1)
                if (warp[__builtin_ctz(rest)].value) votes |= 1u << __builtin_ctz(rest);
            common = op == WarpOp::ballot ? votes : op == WarpOp::any ? votes != 0 : votes == lanes;
            break;
        }
        case WarpOp::match_any: match_any(warp, lanes); return;
        case WarpOp::match_all: {
            const unsigned long long first = warp[__builtin_ctz(lanes)].value;
            bool all_same = true;
            for (unsigned int rest = lanes; rest && all_same; rest &= rest - 1) all_same = warp[__builtin_ctz(rest)].value == first;
            common = all_same ? lanes : 0;
            break;
        }
        default: common = reduce(warp, lanes, op); break;
    }
    for (unsigned int rest = lanes; rest; rest &= rest - 1) warp[__builtin_ctz(rest)].result = common;
}

}  // namespace cudajudge::detail
