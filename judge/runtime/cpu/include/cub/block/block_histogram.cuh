// <cub/block/block_histogram.cuh> on the CPU backend: the block's samples counted into a histogram in
// shared memory with atomics (CUB's BLOCK_HISTO_ATOMIC), whichever algorithm is asked for.
#pragma once
#include "../detail/cudajudge_collective.h"

namespace cub {

enum BlockHistogramAlgorithm { BLOCK_HISTO_SORT, BLOCK_HISTO_ATOMIC };

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BINS, BlockHistogramAlgorithm ALGORITHM = BLOCK_HISTO_SORT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockHistogram {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

public:
    struct TempStorage {};

    BlockHistogram() : tid_(cudajudge_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
    explicit BlockHistogram(TempStorage&) : BlockHistogram() {}

    template <class Counter>
    void InitHistogram(Counter histogram[BINS]) {
        for (int bin = tid_; bin < BINS; bin += BLOCK_THREADS) histogram[bin] = 0;
    }
    // Zeroes the histogram, waits for the block, then counts this block's samples into it.
    template <class Counter>
    void Histogram(T (&items)[ITEMS_PER_THREAD], Counter histogram[BINS], CUDAJUDGE_CALL_LINE) {
        InitHistogram(histogram);
        cudajudge_detail::block_sync("cub::BlockHistogram", line);
        Composite(items, histogram);
    }
    template <class Counter>
    void Composite(T (&items)[ITEMS_PER_THREAD], Counter histogram[BINS]) {
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) atomicAdd(&histogram[static_cast<int>(items[i])], Counter(1));
    }

private:
    int tid_;
};

}  // namespace cub
