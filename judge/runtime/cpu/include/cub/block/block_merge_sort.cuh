// <cub/block/block_merge_sort.cuh> on the CPU backend (see ../detail/cudajudge_collective.h): a
// stable sort of the block's tile by compare_op, blocked in and out.
#pragma once
#include "../detail/cudajudge_collective.h"

namespace cub {

template <class KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, class ValueT = NullType, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockMergeSort {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
    static constexpr bool KEYS_ONLY = std::is_same_v<ValueT, NullType>;
    using Storage = cudajudge_detail::SortTile<KeyT, ValueT, TILE>;
    using Values = ValueT (*)[ITEMS_PER_THREAD];

public:
    struct TempStorage : Storage {};

    explicit BlockMergeSort(TempStorage& temp_storage)
        : storage_(temp_storage), tid_(cudajudge_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    template <class Compare>
    void Sort(KeyT (&keys)[ITEMS_PER_THREAD], Compare compare_op, CUDAJUDGE_CALL_LINE) { sort(keys, nullptr, compare_op, TILE, nullptr, line); }
    template <class Compare>
    void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], Compare compare_op, CUDAJUDGE_CALL_LINE) {
        sort(keys, &values, compare_op, TILE, nullptr, line);
    }
    // Items at or past valid_items become oob_default, sorted with the others.
    template <class Compare>
    void Sort(KeyT (&keys)[ITEMS_PER_THREAD], Compare compare_op, int valid_items, KeyT oob_default, CUDAJUDGE_CALL_LINE) {
        sort(keys, nullptr, compare_op, valid_items, &oob_default, line);
    }
    template <class Compare>
    void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], Compare compare_op, CUDAJUDGE_CALL_LINE) { sort(keys, nullptr, compare_op, TILE, nullptr, line); }
    template <class Compare>
    void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], Compare compare_op, CUDAJUDGE_CALL_LINE) {
        sort(keys, &values, compare_op, TILE, nullptr, line);
    }

private:
    template <class Compare>
    void sort(KeyT (&keys)[ITEMS_PER_THREAD], Values values, Compare compare_op, int valid_items, const KeyT* oob_default,
              cudajudge_detail::CallLine line) {
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            const int at = tid_ * ITEMS_PER_THREAD + i;
            storage_.keys[at] = (oob_default && at >= valid_items) ? *oob_default : keys[i];
            if constexpr (!KEYS_ONLY) storage_.values[at] = (*values)[i];
        }
        cudajudge_detail::block_sync("cub::BlockMergeSort", line);
        if (tid_ == 0) {
            storage_.sort(compare_op);
        }
        cudajudge_detail::block_sync("cub::BlockMergeSort", line);
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            keys[i] = storage_.keys[tid_ * ITEMS_PER_THREAD + i];
            if constexpr (!KEYS_ONLY) (*values)[i] = storage_.values[tid_ * ITEMS_PER_THREAD + i];
        }
    }

    Storage& storage_;
    int tid_;
};

}  // namespace cub
