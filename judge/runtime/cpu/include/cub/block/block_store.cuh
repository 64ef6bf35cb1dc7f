// <cub/block/block_store.cuh> on the CPU backend: the direct stores, and BlockStore, whose every
// algorithm takes CUB's arrangement (striped for BLOCK_STORE_STRIPED, blocked for the others).
#pragma once
#include "../detail/cudajudge_collective.h"

namespace cub {

enum BlockStoreAlgorithm {
    BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE,
    BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED,
};

template <class T, int N, class Output>
void StoreDirectBlocked(int linear_tid, Output block_itr, T (&items)[N]) {
    for (int i = 0; i < N; ++i) block_itr[linear_tid * N + i] = items[i];
}
template <class T, int N, class Output>
void StoreDirectBlocked(int linear_tid, Output block_itr, T (&items)[N], int valid_items) {
    for (int i = 0; i < N; ++i)
        if (linear_tid * N + i < valid_items) block_itr[linear_tid * N + i] = items[i];
}
template <int BLOCK_THREADS, class T, int N, class Output>
void StoreDirectStriped(int linear_tid, Output block_itr, T (&items)[N]) {
    for (int i = 0; i < N; ++i) block_itr[i * BLOCK_THREADS + linear_tid] = items[i];
}
template <int BLOCK_THREADS, class T, int N, class Output>
void StoreDirectStriped(int linear_tid, Output block_itr, T (&items)[N], int valid_items) {
    for (int i = 0; i < N; ++i)
        if (i * BLOCK_THREADS + linear_tid < valid_items) block_itr[i * BLOCK_THREADS + linear_tid] = items[i];
}

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockStore {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr bool BLOCK_EXCHANGE = ALGORITHM == BLOCK_STORE_TRANSPOSE;
    static constexpr bool WARP_EXCHANGE = ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE || ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED;
    using Storage = cudajudge_detail::ExchangeTile<T, BLOCK_THREADS * ITEMS_PER_THREAD, BLOCK_EXCHANGE || WARP_EXCHANGE>;

public:
    struct TempStorage : Storage {};

    // Without TempStorage, CUB's private shared memory: the block's own slot here too.
    BlockStore() : BlockStore(cudajudge::static_shared<TempStorage, (1 << 30) + 2>("cub::BlockStore private storage", "TempStorage")) {}
    explicit BlockStore(TempStorage& temp_storage) : storage_(&temp_storage), tid_(cudajudge_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    template <class Output>
    void Store(Output block_itr, T (&items)[ITEMS_PER_THREAD], CUDAJUDGE_CALL_LINE) {
        store(block_itr, items, BLOCK_THREADS * ITEMS_PER_THREAD, line);
    }
    template <class Output>
    void Store(Output block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, CUDAJUDGE_CALL_LINE) {
        store(block_itr, items, valid_items, line);
    }

private:
    // The transposing algorithms exchange the blocked items through TempStorage and write striped
    // (coalesced, as CUB's do): the whole block for TRANSPOSE, each warp's part for WARP_TRANSPOSE.
    template <class Output>
    void store(Output block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, cudajudge_detail::CallLine line) {
        if constexpr (BLOCK_EXCHANGE || WARP_EXCHANGE) {
            const int width = BLOCK_EXCHANGE ? BLOCK_THREADS : 32;
            const int lane = tid_ % width, base = (tid_ - lane) * ITEMS_PER_THREAD;
            for (int i = 0; i < ITEMS_PER_THREAD; ++i) storage_->items[tid_ * ITEMS_PER_THREAD + i] = items[i];
            if constexpr (BLOCK_EXCHANGE) cudajudge_detail::block_sync("cub::BlockStore", line);
            else cudajudge_detail::warp_sync(cudajudge_detail::logical_warp_mask<32>(tid_), "cub::BlockStore", line);
            for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
                const int at = base + i * width + lane;
                if (at < valid_items) block_itr[at] = storage_->items[at];
            }
        } else if constexpr (ALGORITHM == BLOCK_STORE_STRIPED) {
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
                if (i * BLOCK_THREADS + tid_ < valid_items) block_itr[i * BLOCK_THREADS + tid_] = items[i];
        } else {
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
                if (tid_ * ITEMS_PER_THREAD + i < valid_items) block_itr[tid_ * ITEMS_PER_THREAD + i] = items[i];
        }
    }

    TempStorage* storage_;
    int tid_;
};

}  // namespace cub
