// Block barriers and warp primitives. Each is a rendezvous in the block scheduler (Volta+
// semantics: no implicit lockstep), and each records its source line for diagnostics.
#pragma once

namespace cudajudge::detail {

enum class BarrierKind : unsigned char { plain, count, all, any };

enum class WarpOp : unsigned char {
    sync, shfl_idx, shfl_up, shfl_down, shfl_xor, ballot, any, all, match_any, match_all,
    reduce_add, reduce_min_signed, reduce_max_signed, reduce_min_unsigned, reduce_max_unsigned,
    reduce_and, reduce_or, reduce_xor,
};

// One lane's part in a warp primitive. Lanes rendezvous when every lane named in `mask`
// has arrived with the same operation and mask.
struct WarpCall {
    WarpOp op;
    unsigned int mask;
    unsigned long long value;  // the lane's operand, as raw bits
    int arg;                   // source lane, delta or lane mask
    int width;                 // shuffle segment width
    const char* api;           // how the user spelled it, for diagnostics
    int line;
};

int block_barrier(BarrierKind kind, int predicate, const char* api, int line);
unsigned long long warp_exchange(const WarpCall& call);
unsigned int converged_lanes(int line);

template <class T>
inline unsigned long long to_bits(T v) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "warp primitives exchange values of at most 8 bytes");
    unsigned long long bits = 0;
    std::memcpy(&bits, &v, sizeof v);
    return bits;
}

template <class T>
inline T from_bits(unsigned long long bits) {
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

template <class T>
inline T shuffle(WarpOp op, unsigned int mask, T var, int arg, int width, const char* api, int line) {
    return from_bits<T>(warp_exchange({op, mask, to_bits(var), arg, width, api, line}));
}

}  // namespace cudajudge::detail

// ---- block barriers ---------------------------------------------------------------------
inline void __syncthreads(int line = __builtin_LINE()) {
    cudajudge::detail::block_barrier(cudajudge::detail::BarrierKind::plain, 1, "__syncthreads()", line);
}
inline int __syncthreads_count(int predicate, int line = __builtin_LINE()) {
    return cudajudge::detail::block_barrier(cudajudge::detail::BarrierKind::count, predicate, "__syncthreads_count()", line);
}
inline int __syncthreads_and(int predicate, int line = __builtin_LINE()) {
    return cudajudge::detail::block_barrier(cudajudge::detail::BarrierKind::all, predicate, "__syncthreads_and()", line);
}
inline int __syncthreads_or(int predicate, int line = __builtin_LINE()) {
    return cudajudge::detail::block_barrier(cudajudge::detail::BarrierKind::any, predicate, "__syncthreads_or()", line);
}

// ---- warp primitives ----------------------------------------------------------------------
inline void __syncwarp(unsigned int mask = 0xffffffffu, int line = __builtin_LINE()) {
    cudajudge::detail::warp_exchange({cudajudge::detail::WarpOp::sync, mask, 0, 0, 32, "__syncwarp", line});
}
// The lanes that reach this point together: a lane waits here until every other lane of its
// warp has arrived here or is blocked elsewhere.
inline unsigned int __activemask(int line = __builtin_LINE()) { return cudajudge::detail::converged_lanes(line); }

template <class T>
inline T __shfl_sync(unsigned int mask, T var, int src_lane, int width = 32, int line = __builtin_LINE()) {
    return cudajudge::detail::shuffle(cudajudge::detail::WarpOp::shfl_idx, mask, var, src_lane, width, "__shfl_sync", line);
}
template <class T>
inline T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32, int line = __builtin_LINE()) {
    return cudajudge::detail::shuffle(cudajudge::detail::WarpOp::shfl_up, mask, var, static_cast<int>(delta), width, "__shfl_up_sync", line);
}
template <class T>
inline T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32, int line = __builtin_LINE()) {
    return cudajudge::detail::shuffle(cudajudge::detail::WarpOp::shfl_down, mask, var, static_cast<int>(delta), width, "__shfl_down_sync", line);
}
template <class T>
inline T __shfl_xor_sync(unsigned int mask, T var, int lane_mask, int width = 32, int line = __builtin_LINE()) {
    return cudajudge::detail::shuffle(cudajudge::detail::WarpOp::shfl_xor, mask, var, lane_mask, width, "__shfl_xor_sync", line);
}

inline unsigned int __ballot_sync(unsigned int mask, int predicate, int line = __builtin_LINE()) {
    return static_cast<unsigned int>(cudajudge::detail::warp_exchange(
        {cudajudge::detail::WarpOp::ballot, mask, predicate != 0, 0, 32, "__ballot_sync", line}));
}
inline int __any_sync(unsigned int mask, int predicate, int line = __builtin_LINE()) {
    return static_cast<int>(cudajudge::detail::warp_exchange(
        {cudajudge::detail::WarpOp::any, mask, predicate != 0, 0, 32, "__any_sync", line}));
}
inline int __all_sync(unsigned int mask, int predicate, int line = __builtin_LINE()) {
    return static_cast<int>(cudajudge::detail::warp_exchange(
        {cudajudge::detail::WarpOp::all, mask, predicate != 0, 0, 32, "__all_sync", line}));
}
inline int __uni_sync(unsigned int mask, int predicate, int line = __builtin_LINE()) {
    int all = __all_sync(mask, predicate, line);
    return all || !__any_sync(mask, predicate, line);
}

template <class T>
inline unsigned int __match_any_sync(unsigned int mask, T value, int line = __builtin_LINE()) {
    return static_cast<unsigned int>(cudajudge::detail::warp_exchange(
        {cudajudge::detail::WarpOp::match_any, mask, cudajudge::detail::to_bits(value), 0, 32, "__match_any_sync", line}));
}
template <class T>
inline unsigned int __match_all_sync(unsigned int mask, T value, int* pred, int line = __builtin_LINE()) {
    unsigned int result = static_cast<unsigned int>(cudajudge::detail::warp_exchange(
        {cudajudge::detail::WarpOp::match_all, mask, cudajudge::detail::to_bits(value), 0, 32, "__match_all_sync", line}));
    *pred = result != 0;
    return result;
}

#define CUDAJUDGE_WARP_REDUCE(name, T, op)                                                            \
    inline T name(unsigned int mask, T value, int line = __builtin_LINE()) {                           \
        return cudajudge::detail::from_bits<T>(cudajudge::detail::warp_exchange(                        \
            {cudajudge::detail::WarpOp::op, mask, cudajudge::detail::to_bits(value), 0, 32, #name, line})); \
    }
CUDAJUDGE_WARP_REDUCE(__reduce_add_sync, unsigned int, reduce_add)
CUDAJUDGE_WARP_REDUCE(__reduce_add_sync, int, reduce_add)
CUDAJUDGE_WARP_REDUCE(__reduce_min_sync, unsigned int, reduce_min_unsigned)
CUDAJUDGE_WARP_REDUCE(__reduce_min_sync, int, reduce_min_signed)
CUDAJUDGE_WARP_REDUCE(__reduce_max_sync, unsigned int, reduce_max_unsigned)
CUDAJUDGE_WARP_REDUCE(__reduce_max_sync, int, reduce_max_signed)
CUDAJUDGE_WARP_REDUCE(__reduce_and_sync, unsigned int, reduce_and)
CUDAJUDGE_WARP_REDUCE(__reduce_or_sync, unsigned int, reduce_or)
CUDAJUDGE_WARP_REDUCE(__reduce_xor_sync, unsigned int, reduce_xor)
#undef CUDAJUDGE_WARP_REDUCE
