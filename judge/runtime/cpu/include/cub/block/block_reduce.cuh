// <cub/block/block_reduce.cuh> on the CPU backend (see ../detail/cudajudge_collective.h).
#pragma once
#include "../detail/cudajudge_collective.h"
#include "../thread/thread_operators.cuh"

namespace cub {

enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };

template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    struct Storage {
        T items[BLOCK_THREADS];
    };

public:
    struct TempStorage : Storage {};

    explicit BlockReduce(TempStorage& temp_storage)
        : storage_(temp_storage), tid_(cudajudge_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    // The block's reduction in thread 0; what other threads get is undefined, as in CUB.
    template <class ReductionOp>
    T Reduce(T input, ReductionOp op, CUDAJUDGE_CALL_LINE) { return reduce(input, op, BLOCK_THREADS, line); }

    template <class ReductionOp>
    T Reduce(T input, ReductionOp op, int num_valid, CUDAJUDGE_CALL_LINE) { return reduce(input, op, num_valid, line); }

    template <int ITEMS_PER_THREAD, class ReductionOp>
    T Reduce(T (&inputs)[ITEMS_PER_THREAD], ReductionOp op, CUDAJUDGE_CALL_LINE) {
        T partial = inputs[0];
        for (int i = 1; i < ITEMS_PER_THREAD; ++i) partial = op(partial, inputs[i]);
        return reduce(partial, op, BLOCK_THREADS, line);
    }

    T Sum(T input, CUDAJUDGE_CALL_LINE) { return reduce(input, std::plus<>{}, BLOCK_THREADS, line); }

    T Sum(T input, int num_valid, CUDAJUDGE_CALL_LINE) { return reduce(input, std::plus<>{}, num_valid, line); }

    template <int ITEMS_PER_THREAD>
    T Sum(T (&inputs)[ITEMS_PER_THREAD], CUDAJUDGE_CALL_LINE) { return Reduce(inputs, std::plus<>{}, line); }

private:
    template <class ReductionOp>
    T reduce(T input, ReductionOp op, int num_valid, cudajudge_detail::CallLine line) {
        if (tid_ < num_valid) storage_.items[tid_] = input;
        cudajudge_detail::block_sync("cub::BlockReduce", line);
        if (tid_ != 0) return cudajudge_detail::indeterminate<T>();
        return cudajudge_detail::tree_reduce(storage_.items, num_valid < BLOCK_THREADS ? num_valid : BLOCK_THREADS, op);
    }

    Storage& storage_;
    int tid_;
};

}  // namespace cub
