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

public:
    struct TempStorage {};

    BlockLoad() : tid_(cudajudge_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
    explicit BlockLoad(TempStorage&) : BlockLoad() {}

    template <class Input>
    void Load(Input block_itr, T (&items)[ITEMS_PER_THREAD]) {
        if constexpr (ALGORITHM == BLOCK_LOAD_STRIPED) LoadDirectStriped<BLOCK_THREADS>(tid_, block_itr, items);
        else LoadDirectBlocked(tid_, block_itr, items);
    }
    template <class Input>
    void Load(Input block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
        if constexpr (ALGORITHM == BLOCK_LOAD_STRIPED) LoadDirectStriped<BLOCK_THREADS>(tid_, block_itr, items, valid_items);
        else LoadDirectBlocked(tid_, block_itr, items, valid_items);
    }
    template <class Input, class Default>
    void Load(Input block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, Default oob_default) {
        if constexpr (ALGORITHM == BLOCK_LOAD_STRIPED) LoadDirectStriped<BLOCK_THREADS>(tid_, block_itr, items, valid_items, oob_default);
        else LoadDirectBlocked(tid_, block_itr, items, valid_items, oob_default);
    }

private:
    int tid_;
};

}  // namespace cub
