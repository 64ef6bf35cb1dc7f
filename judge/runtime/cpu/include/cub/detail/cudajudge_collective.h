// What the CPU backend's CUB collectives share. They follow CUB's contracts, not its algorithms:
// every thread stores its items in the collective's TempStorage (block shared memory, as in CUB),
// the block (or logical warp) meets at a barrier, and the result is computed from the stored
// items. Each contract is kept strictly: a result CUB defines only in thread 0 (or lane 0) is an
// indeterminate value elsewhere, and reusing TempStorage without a barrier is a race the memory
// observer reports. Barriers carry the line of the user's call. Shared memory is read and written
// element by element, never by memcpy, which the observer would not see.
#pragma once

#include <algorithm>
#include <cstring>
#include <functional>
#include <type_traits>
#include <vector>

#include <cuda/std/__cudajudge_alias.h>
#include <cub/detail/cudajudge_key_value_pair.h>
#include <cudajudge/call_site.h>

namespace cub {

namespace cudajudge_detail {

using CallLine = ::cudajudge::CallSite;
#define CUDAJUDGE_CALL_LINE ::cudajudge::CallSite line = {__builtin_LINE()}

template <int X, int Y, int Z>
inline int linear_tid() {
    return static_cast<int>(threadIdx.x + threadIdx.y * X + threadIdx.z * X * Y);
}

// What a thread holds where CUB leaves a result undefined: the bytes of fresh device memory.
template <class T>
inline T indeterminate() {
    if constexpr (std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>) {
        T value;
        std::memset(static_cast<void*>(&value), 0xCD, sizeof value);
        return value;
    } else {
        return T{};
    }
}

// The reduction of items[0, count) in the shape of CUB's shuffle trees (pairs at distance 1, 2,
// 4, ...): the rounding a learner's tolerance was made for, not a sequential sum's.
template <class T, class Op>
inline T tree_reduce(const T* items, int count, Op op) {
    if (count <= 0) return indeterminate<T>();
    std::vector<T> level;
    level.reserve(count);
    for (int i = 0; i < count; ++i) level.push_back(items[i]);   // one read each, seen by the memory observer
    for (int stride = 1; stride < count; stride *= 2)
        for (int i = 0; i + stride < count; i += 2 * stride) level[i] = op(level[i], level[i + stride]);
    return level[0];
}

// Stable-sorts keys[0, tile) by `less`, moving values[0, tile) with them when values is not null
// (done by one thread, between the block's barriers).
template <class Key, class Value, class Less>
inline void sort_tile(Key* keys, Value* values, int tile, Less less) {
    std::vector<int> order(tile);   // on the heap: a tile can outgrow an emulated thread's stack
    for (int i = 0; i < tile; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return less(keys[a], keys[b]); });
    std::vector<Key> sorted_keys;
    sorted_keys.reserve(tile);
    for (int i = 0; i < tile; ++i) sorted_keys.push_back(keys[order[i]]);
    for (int i = 0; i < tile; ++i) keys[i] = sorted_keys[i];
    if (values == nullptr) return;
    std::vector<Value> sorted_values;
    sorted_values.reserve(tile);
    for (int i = 0; i < tile; ++i) sorted_values.push_back(values[order[i]]);
    for (int i = 0; i < tile; ++i) values[i] = sorted_values[i];
}

// A block sort's tile: keys and, unless Value is NullType, the values that move with them.
template <class Key, class Value, int Tile>
struct SortTile {
    static constexpr bool keys_only = std::is_same_v<Value, NullType>;
    Key keys[Tile];
    std::conditional_t<keys_only, char, Value> values[keys_only ? 1 : Tile];

    template <class Less>
    void sort(Less less) {
        if constexpr (keys_only) sort_tile(keys, static_cast<Key*>(nullptr), Tile, less);
        else sort_tile(keys, values, Tile, less);
    }
};

inline void block_sync(const char* api, CallLine line) {
    cudajudge::detail::block_barrier(cudajudge::detail::BarrierKind::plain, 1, api, line.value);
}

// The lanes of the running thread's logical warp of `Width` threads, as a __syncwarp mask.
template <int Width>
inline unsigned int logical_warp_mask(int lane_in_block) {
    if constexpr (Width >= 32) {
        return 0xffffffffu;
    } else {
        const unsigned int group = static_cast<unsigned int>(lane_in_block % 32) / Width;
        return ((1u << Width) - 1u) << (group * Width);
    }
}

// The running thread's place in its logical warp of `Width` threads.
template <int Width>
struct LogicalWarp {
    int lane;
    unsigned int mask;
    LogicalWarp() {
        const int tid = static_cast<int>(threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y);
        lane = tid % Width;
        mask = logical_warp_mask<Width>(tid);
    }
};

// The tile a BlockLoad or BlockStore exchanges its items through, when its algorithm transposes.
template <class T, int Tile, bool Exchange>
struct ExchangeTile {
    T items[Tile];
};
template <class T, int Tile>
struct ExchangeTile<T, Tile, false> {};

inline void warp_sync(unsigned int mask, const char* api, CallLine line) {
    cudajudge::detail::warp_exchange({cudajudge::detail::WarpOp::sync, mask, 0, 0, 32, api, line.value});
}

}  // namespace cudajudge_detail
}  // namespace cub
