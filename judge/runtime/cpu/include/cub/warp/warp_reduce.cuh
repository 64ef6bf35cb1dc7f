// <cub/warp/warp_reduce.cuh> on the CPU backend (see ../detail/cudajudge_collective.h).
#pragma once
#include "../detail/cudajudge_collective.h"
#include "../thread/thread_operators.cuh"

namespace cub {

template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpReduce {
    struct Storage {
        T items[LOGICAL_WARP_THREADS];
    };

public:
    struct TempStorage : Storage {};

    explicit WarpReduce(TempStorage& temp_storage) : storage_(temp_storage) {}

    // The logical warp's reduction in its lane 0; what other lanes get is undefined, as in CUB.
    T Sum(T input, CUDAJUDGE_CALL_LINE) { return reduce(input, std::plus<>{}, LOGICAL_WARP_THREADS, line); }
    T Sum(T input, int valid_items, CUDAJUDGE_CALL_LINE) { return reduce(input, std::plus<>{}, valid_items, line); }
    template <class ReductionOp>
    T Reduce(T input, ReductionOp op, CUDAJUDGE_CALL_LINE) { return reduce(input, op, LOGICAL_WARP_THREADS, line); }
    template <class ReductionOp>
    T Reduce(T input, ReductionOp op, int valid_items, CUDAJUDGE_CALL_LINE) { return reduce(input, op, valid_items, line); }

private:
    template <class ReductionOp>
    T reduce(T input, ReductionOp op, int valid_items, cudajudge_detail::CallLine line) {
        if (warp_.lane < valid_items) storage_.items[warp_.lane] = input;
        cudajudge_detail::warp_sync(warp_.mask, "cub::WarpReduce", line);
        T result = cudajudge_detail::indeterminate<T>();
        if (warp_.lane == 0)
            result = cudajudge_detail::tree_reduce(storage_.items, valid_items < LOGICAL_WARP_THREADS ? valid_items : LOGICAL_WARP_THREADS, op);
        cudajudge_detail::warp_sync(warp_.mask, "cub::WarpReduce", line);   // CUB's shuffles leave no reads pending
        return result;
    }

    Storage& storage_;
    cudajudge_detail::LogicalWarp<LOGICAL_WARP_THREADS> warp_;
};

}  // namespace cub
