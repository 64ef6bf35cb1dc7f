// <cub/block/block_radix_sort.cuh> on the CPU backend (see ../detail/cudajudge_collective.h): a
// stable sort of the block's keys by the bits [begin_bit, end_bit) of CUB's radix order (floats'
// bits twiddled so that -0.0 comes before +0.0 and negative NaNs first), blocked in and out.
#pragma once
#include <cstdint>

#include "../detail/cudajudge_collective.h"

namespace cub {

namespace cudajudge_detail {

template <class Key>
inline unsigned long long radix_bits(Key key) {
    static_assert(std::is_arithmetic_v<Key>, "BlockRadixSort sorts arithmetic keys");
    using Bits = std::conditional_t<sizeof(Key) == 1, uint8_t, std::conditional_t<sizeof(Key) == 2, uint16_t,
                 std::conditional_t<sizeof(Key) == 4, uint32_t, uint64_t>>>;
    Bits bits;
    std::memcpy(&bits, &key, sizeof bits);
    constexpr Bits high = Bits(Bits(1) << (sizeof(Bits) * 8 - 1));
    if constexpr (std::is_floating_point_v<Key>) bits = (bits & high) ? Bits(~bits) : Bits(bits ^ high);
    else if constexpr (std::is_signed_v<Key>) bits = Bits(bits ^ high);
    return bits;
}

}  // namespace cudajudge_detail

template <class KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, class ValueT = NullType, int RADIX_BITS = 4,
          bool MEMOIZE_OUTER_SCAN = true, int INNER_SCAN_ALGORITHM = 0, int SMEM_CONFIG = 0, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockRadixSort {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
    static constexpr bool KEYS_ONLY = std::is_same_v<ValueT, NullType>;
    using Storage = cudajudge_detail::SortTile<KeyT, ValueT, TILE>;

public:
    struct TempStorage : Storage {};

    explicit BlockRadixSort(TempStorage& temp_storage)
        : storage_(temp_storage), tid_(cudajudge_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    void Sort(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, CUDAJUDGE_CALL_LINE) {
        sort(keys, nullptr, begin_bit, end_bit, false, false, line);
    }
    void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
              int end_bit = sizeof(KeyT) * 8, CUDAJUDGE_CALL_LINE) {
        sort(keys, &values, begin_bit, end_bit, false, false, line);
    }
    void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, CUDAJUDGE_CALL_LINE) {
        sort(keys, nullptr, begin_bit, end_bit, true, false, line);
    }
    void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                        int end_bit = sizeof(KeyT) * 8, CUDAJUDGE_CALL_LINE) {
        sort(keys, &values, begin_bit, end_bit, true, false, line);
    }
    void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                              CUDAJUDGE_CALL_LINE) {
        sort(keys, nullptr, begin_bit, end_bit, false, true, line);
    }
    void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                              int end_bit = sizeof(KeyT) * 8, CUDAJUDGE_CALL_LINE) {
        sort(keys, &values, begin_bit, end_bit, false, true, line);
    }
    void SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                        CUDAJUDGE_CALL_LINE) {
        sort(keys, nullptr, begin_bit, end_bit, true, true, line);
    }
    void SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8, CUDAJUDGE_CALL_LINE) {
        sort(keys, &values, begin_bit, end_bit, true, true, line);
    }

private:
    using Values = ValueT (*)[ITEMS_PER_THREAD];

    void sort(KeyT (&keys)[ITEMS_PER_THREAD], Values values, int begin_bit, int end_bit, bool descending, bool striped,
              cudajudge_detail::CallLine line) {
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            storage_.keys[tid_ * ITEMS_PER_THREAD + i] = keys[i];
            if constexpr (!KEYS_ONLY) storage_.values[tid_ * ITEMS_PER_THREAD + i] = (*values)[i];
        }
        cudajudge_detail::block_sync("cub::BlockRadixSort", line);
        if (tid_ == 0) {
            const int width = end_bit - begin_bit;
            const unsigned long long mask = width >= 64 ? ~0ull : ((1ull << width) - 1ull);
            auto digit = [&](const KeyT& key) { return (cudajudge_detail::radix_bits(key) >> begin_bit) & mask; };
            auto less = [&](const KeyT& a, const KeyT& b) { return descending ? digit(a) > digit(b) : digit(a) < digit(b); };
            storage_.sort(less);
        }
        cudajudge_detail::block_sync("cub::BlockRadixSort", line);
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            const int at = striped ? i * BLOCK_THREADS + tid_ : tid_ * ITEMS_PER_THREAD + i;
            keys[i] = storage_.keys[at];
            if constexpr (!KEYS_ONLY) (*values)[i] = storage_.values[at];
        }
    }

    Storage& storage_;
    int tid_;
};

}  // namespace cub
