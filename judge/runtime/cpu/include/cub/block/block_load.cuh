// <cub/block/block_load.cuh> on the CPU backend: the direct loads, and BlockLoad, whose every
// algorithm yields CUB's arrangement (striped for BLOCK_LOAD_STRIPED, blocked for the others).
#pragma once
#include "../detail/cudajudge_collective.h"

namespace cub {

enum BlockLoadAlgorithm {
    BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE,
    BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
};

template <class T, int N, class Input>
void LoadDirectBlocked(int linear_tid, Input block_itr, T (&items)[N]) {
    for (int i = 0; i < N; ++i) items[i] = block_itr[linear_tid * N + i];
}
template <class T, int N, class Input>
void LoadDirectBlocked(int linear_tid, Input block_itr, T (&items)[N], int valid_items) {
    for (int i = 0; i < N; ++i)
        if (linear_tid * N + i < valid_items) items[i] = block_itr[linear_tid * N + i];
}
template <class T, class Default, int N, class Input>
void LoadDirectBlocked(int linear_tid, Input block_itr, T (&items)[N], int valid_items, Default oob_default) {
    for (int i = 0; i < N; ++i) items[i] = linear_tid * N + i < valid_items ? T(block_itr[linear_tid * N + i]) : T(oob_default);
}
template <int BLOCK_THREADS, class T, int N, class Input>
void LoadDirectStriped(int linear_tid, Input block_itr, T (&items)[N]) {
    for (int i = 0; i < N; ++i) items[i] = block_itr[i * BLOCK_THREADS + linear_tid];
}
template <int BLOCK_THREADS, class T, int N, class Input>
void LoadDirectStriped(int linear_tid, Input block_itr, T (&items)[N], int valid_items) {
    for (int i = 0; i < N; ++i)
        if (i * BLOCK_THREADS + linear_tid < valid_items) items[i] = block_itr[i * BLOCK_THREADS + linear_tid];
}
template <int BLOCK_THREADS, class T, class Default, int N, class Input>
void LoadDirectStriped(int linear_tid, Input block_itr, T (&items)[N], int valid_items, Default oob_default) {
    for (int i = 0; i < N; ++i) {
        const int at = i * BLOCK_THREADS + linear_tid;
        items[i] = at < valid_items ? T(block_itr[at]) : T(oob_default);
    }
}

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockLoad {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr bool BLOCK_EXCHANGE = ALGORITHM == BLOCK_LOAD_TRANSPOSE;
    static constexpr bool WARP_EXCHANGE = ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE || ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED;
    using Storage = cudajudge_detail::ExchangeTile<T, BLOCK_THREADS * ITEMS_PER_THREAD, BLOCK_EXCHANGE || WARP_EXCHANGE>;

public:
    struct TempStorage : Storage {};

    // Without TempStorage, CUB's private shared memory: the block's own slot here too.
    BlockLoad() : BlockLoad(cudajudge::static_shared<TempStorage, (1 << 30) + 1>("cub::BlockLoad private storage", "TempStorage")) {}
    explicit BlockLoad(TempStorage& temp_storage) : storage_(&temp_storage), tid_(cudajudge_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    template <class Input>
    void Load(Input block_itr, T (&items)[ITEMS_PER_THREAD], CUDAJUDGE_CALL_LINE) {
        load(block_itr, items, BLOCK_THREADS * ITEMS_PER_THREAD, nullptr, line);
    }
    template <class Input>
    void Load(Input block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, CUDAJUDGE_CALL_LINE) {
        load(block_itr, items, valid_items, nullptr, line);
    }
    template <class Input, class Default>
    void Load(Input block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, Default oob_default, CUDAJUDGE_CALL_LINE) {
        const T fill = T(oob_default);
        load(block_itr, items, valid_items, &fill, line);
    }

private:
    // The transposing algorithms read striped (coalesced, as CUB's do) and exchange the items through
    // TempStorage into the blocked arrangement: the whole block for TRANSPOSE, each warp's own part
    // of the tile for the WARP_TRANSPOSE ones.
    template <class Input>
    void load(Input block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, const T* fill, cudajudge_detail::CallLine line) {
        if constexpr (BLOCK_EXCHANGE || WARP_EXCHANGE) {
            const int width = BLOCK_EXCHANGE ? BLOCK_THREADS : 32;
            const int lane = tid_ % width, base = (tid_ - lane) * ITEMS_PER_THREAD;
            for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
                const int at = base + i * width + lane;
                if (at < valid_items) storage_->items[at] = block_itr[at];
                else if (fill) storage_->items[at] = *fill;
            }
            if constexpr (BLOCK_EXCHANGE) cudajudge_detail::block_sync("cub::BlockLoad", line);
            else cudajudge_detail::warp_sync(cudajudge_detail::logical_warp_mask<32>(tid_), "cub::BlockLoad", line);
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
                if (tid_ * ITEMS_PER_THREAD + i < valid_items || fill) items[i] = storage_->items[tid_ * ITEMS_PER_THREAD + i];
        } else if constexpr (ALGORITHM == BLOCK_LOAD_STRIPED) {
            for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
                const int at = i * BLOCK_THREADS + tid_;
                if (at < valid_items) items[i] = block_itr[at];
                else if (fill) items[i] = *fill;
            }
        } else {
            for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
                const int at = tid_ * ITEMS_PER_THREAD + i;
                if (at < valid_items) items[i] = block_itr[at];
                else if (fill) items[i] = *fill;
            }
        }
    }

    TempStorage* storage_;
    int tid_;
};

}  // namespace cub
