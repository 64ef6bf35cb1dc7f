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

public:
    struct TempStorage {};

    BlockStore() : tid_(cudajudge_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
    explicit BlockStore(TempStorage&) : BlockStore() {}

    template <class Output>
    void Store(Output block_itr, T (&items)[ITEMS_PER_THREAD]) {
        if constexpr (ALGORITHM == BLOCK_STORE_STRIPED) StoreDirectStriped<BLOCK_THREADS>(tid_, block_itr, items);
        else StoreDirectBlocked(tid_, block_itr, items);
    }
    template <class Output>
    void Store(Output block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
        if constexpr (ALGORITHM == BLOCK_STORE_STRIPED) StoreDirectStriped<BLOCK_THREADS>(tid_, block_itr, items, valid_items);
        else StoreDirectBlocked(tid_, block_itr, items, valid_items);
    }

private:
    int tid_;
};

}  // namespace cub
