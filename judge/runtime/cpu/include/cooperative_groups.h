// <cooperative_groups.h> for the CPU backend: thread blocks, statically sized tiles of a warp,
// coalesced groups, and the reduce/scan collectives, over the same rendezvous as
// __syncthreads and the *_sync warp primitives (so misuse is diagnosed the same way).
#pragma once

#include "../cuda_cpu.h"

namespace cooperative_groups {

namespace details {

inline unsigned int block_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
inline unsigned int block_size() { return blockDim.x * blockDim.y * blockDim.z; }
inline unsigned int lane() { return block_rank() % 32; }

// The lanes of the aligned tile of `size` lanes that holds the calling lane.
inline unsigned int tile_mask(unsigned int size) {
    if (size >= 32) return 0xffffffffu;
    return ((1u << size) - 1) << (lane() / size * size);
}

using cudajudge::detail::WarpOp;

template <class T>
inline T tile_shuffle(WarpOp op, unsigned int mask, T var, int arg, unsigned int width, const char* api, int line) {
    return cudajudge::detail::shuffle(op, mask, var, arg, static_cast<int>(width), api, line);
}

}  // namespace details

class thread_block {
public:
    static void sync(int line = __builtin_LINE()) {
        cudajudge::detail::block_barrier(cudajudge::detail::BarrierKind::plain, 1, "thread_block::sync()", line);
    }
    static unsigned int thread_rank() { return details::block_rank(); }
    static unsigned int size() { return details::block_size(); }
    static unsigned int num_threads() { return details::block_size(); }
    static dim3 group_index() { return blockIdx; }
    static dim3 thread_index() { return threadIdx; }
    static dim3 group_dim() { return blockDim; }
    static dim3 dim_threads() { return blockDim; }
};

inline thread_block this_thread_block() { return thread_block(); }

// A group whose size is known only at run time: the whole block, or a tile of at most a warp.
class thread_group {
public:
    thread_group(const thread_block&) : size_(0) {}
    explicit thread_group(unsigned int tile_size) : size_(tile_size) {}

    void sync(int line = __builtin_LINE()) const {
        if (size_ == 0)
            thread_block::sync(line);
        else
            cudajudge::detail::warp_exchange({details::WarpOp::sync, details::tile_mask(size_), 0, 0, 32, "thread_group::sync()", line});
    }
    unsigned int thread_rank() const { return size_ == 0 ? details::block_rank() : details::block_rank() % size_; }
    unsigned int size() const { return size_ == 0 ? details::block_size() : size_; }
    unsigned int num_threads() const { return size(); }

private:
    unsigned int size_;  // 0 for the whole block
};

inline thread_group tiled_partition(const thread_block&, unsigned int tile_size) { return thread_group(tile_size); }

template <unsigned int Size>
class thread_block_tile {
    static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0, "tiles hold a power of two of at most 32 threads");

public:
    static constexpr unsigned int num_threads() { return Size; }
    static constexpr unsigned int size() { return Size; }
    unsigned int thread_rank() const { return details::block_rank() % Size; }
    unsigned int meta_group_rank() const { return details::block_rank() / Size; }
    unsigned int meta_group_size() const { return (details::block_size() + Size - 1) / Size; }
    operator thread_group() const { return thread_group(Size); }

    void sync(int line = __builtin_LINE()) const {
        cudajudge::detail::warp_exchange({details::WarpOp::sync, mask(), 0, 0, 32, "thread_block_tile::sync()", line});
    }

    template <class T>
    T shfl(T var, int src_rank, int line = __builtin_LINE()) const {
        return details::tile_shuffle(details::WarpOp::shfl_idx, mask(), var, src_rank, Size, "thread_block_tile::shfl", line);
    }
    template <class T>
    T shfl_up(T var, unsigned int delta, int line = __builtin_LINE()) const {
        return details::tile_shuffle(details::WarpOp::shfl_up, mask(), var, static_cast<int>(delta), Size, "thread_block_tile::shfl_up", line);
    }
    template <class T>
    T shfl_down(T var, unsigned int delta, int line = __builtin_LINE()) const {
        return details::tile_shuffle(details::WarpOp::shfl_down, mask(), var, static_cast<int>(delta), Size, "thread_block_tile::shfl_down", line);
    }
    template <class T>
    T shfl_xor(T var, unsigned int lane_mask, int line = __builtin_LINE()) const {
        return details::tile_shuffle(details::WarpOp::shfl_xor, mask(), var, static_cast<int>(lane_mask), Size, "thread_block_tile::shfl_xor", line);
    }

    int any(int predicate, int line = __builtin_LINE()) const { return vote(predicate, "thread_block_tile::any", line) != 0; }
    int all(int predicate, int line = __builtin_LINE()) const {
        return vote(predicate, "thread_block_tile::all", line) == (mask() >> base());
    }
    // Bits are tile ranks, not warp lanes.
    unsigned int ballot(int predicate, int line = __builtin_LINE()) const { return vote(predicate, "thread_block_tile::ballot", line); }

    template <class T>
    unsigned int match_any(T value, int line = __builtin_LINE()) const {
        return static_cast<unsigned int>(cudajudge::detail::warp_exchange(
                   {details::WarpOp::match_any, mask(), cudajudge::detail::to_bits(value), 0, 32, "thread_block_tile::match_any", line})) >>
               base();
    }
    template <class T>
    unsigned int match_all(T value, int& pred, int line = __builtin_LINE()) const {
        unsigned int lanes = static_cast<unsigned int>(cudajudge::detail::warp_exchange(
            {details::WarpOp::match_all, mask(), cudajudge::detail::to_bits(value), 0, 32, "thread_block_tile::match_all", line}));
        pred = lanes != 0;
        return lanes >> base();
    }

private:
    static unsigned int base() { return details::lane() / Size * Size; }
    static unsigned int mask() { return details::tile_mask(Size); }
    unsigned int vote(int predicate, const char* api, int line) const {
        return static_cast<unsigned int>(cudajudge::detail::warp_exchange({details::WarpOp::ballot, mask(), predicate != 0, 0, 32, api, line})) >> base();
    }
};

template <unsigned int Size, class Parent>
inline thread_block_tile<Size> tiled_partition(const Parent&) {
    return thread_block_tile<Size>();
}

// The lanes of a warp that reached this point together (see __activemask).
class coalesced_group {
public:
    explicit coalesced_group(unsigned int mask) : mask_(mask) {}

    unsigned int size() const { return static_cast<unsigned int>(__builtin_popcount(mask_)); }
    unsigned int num_threads() const { return size(); }
    unsigned int thread_rank() const { return static_cast<unsigned int>(__builtin_popcount(mask_ & ((1u << details::lane()) - 1))); }
    unsigned int meta_group_rank() const { return 0; }
    unsigned int meta_group_size() const { return 1; }

    void sync(int line = __builtin_LINE()) const {
        cudajudge::detail::warp_exchange({details::WarpOp::sync, mask_, 0, 0, 32, "coalesced_group::sync()", line});
    }
    template <class T>
    T shfl(T var, unsigned int src_rank, int line = __builtin_LINE()) const {
        return details::tile_shuffle(details::WarpOp::shfl_idx, mask_, var, lane_of(src_rank), 32, "coalesced_group::shfl", line);
    }
    int any(int predicate, int line = __builtin_LINE()) const { return ballot(predicate, line) != 0; }
    int all(int predicate, int line = __builtin_LINE()) const { return ballot(predicate, line) == (size() == 32 ? ~0u : (1u << size()) - 1); }
    // Bits are group ranks, not warp lanes.
    unsigned int ballot(int predicate, int line = __builtin_LINE()) const {
        unsigned int lanes = static_cast<unsigned int>(
            cudajudge::detail::warp_exchange({details::WarpOp::ballot, mask_, predicate != 0, 0, 32, "coalesced_group::ballot", line}));
        unsigned int ranks = 0, rank = 0;
        for (unsigned int rest = mask_; rest; rest &= rest - 1, ++rank)
            if (lanes >> __builtin_ctz(rest) & 1u) ranks |= 1u << rank;
        return ranks;
    }

private:
    int lane_of(unsigned int rank) const {
        unsigned int rest = mask_;
        for (unsigned int i = 0; i < rank && rest; ++i) rest &= rest - 1;
        return rest ? __builtin_ctz(rest) : static_cast<int>(details::lane());
    }

    unsigned int mask_;
};

inline coalesced_group coalesced_threads(int line = __builtin_LINE()) { return coalesced_group(__activemask(line)); }

template <class Group>
inline void sync(const Group& group, int line = __builtin_LINE()) {
    group.sync(line);
}

// ---- collectives: the operators of <cooperative_groups/functional.h> and reduce/scan ----------

template <class T> struct plus { T operator()(const T& a, const T& b) const { return a + b; } };
template <class T> struct less { T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
template <class T> struct greater { T operator()(const T& a, const T& b) const { return a < b ? b : a; } };
template <class T> struct bit_and { T operator()(const T& a, const T& b) const { return a & b; } };
template <class T> struct bit_or { T operator()(const T& a, const T& b) const { return a | b; } };
template <class T> struct bit_xor { T operator()(const T& a, const T& b) const { return a ^ b; } };

template <unsigned int Size, class T, class Op>
inline T reduce(const thread_block_tile<Size>& tile, T value, Op op, int line = __builtin_LINE()) {
    for (unsigned int offset = Size / 2; offset > 0; offset /= 2) value = op(value, tile.shfl_xor(value, offset, line));
    return value;
}

template <unsigned int Size, class T, class Op>
inline T inclusive_scan(const thread_block_tile<Size>& tile, T value, Op op, int line = __builtin_LINE()) {
    for (unsigned int offset = 1; offset < Size; offset *= 2) {
        T other = tile.shfl_up(value, offset, line);
        if (tile.thread_rank() >= offset) value = op(value, other);
    }
    return value;
}

template <unsigned int Size, class T>
inline T inclusive_scan(const thread_block_tile<Size>& tile, T value, int line = __builtin_LINE()) {
    return inclusive_scan(tile, value, plus<T>(), line);
}

template <unsigned int Size, class T, class Op>
inline T exclusive_scan(const thread_block_tile<Size>& tile, T value, Op op, int line = __builtin_LINE()) {
    T inclusive = inclusive_scan(tile, value, op, line);
    T shifted = tile.shfl_up(inclusive, 1, line);
    return tile.thread_rank() == 0 ? T() : shifted;
}

template <unsigned int Size, class T>
inline T exclusive_scan(const thread_block_tile<Size>& tile, T value, int line = __builtin_LINE()) {
    return exclusive_scan(tile, value, plus<T>(), line);
}

}  // namespace cooperative_groups
