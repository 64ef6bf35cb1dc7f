// <cub/warp/warp_scan.cuh> on the CPU backend (see ../detail/cudajudge_collective.h).
#pragma once
#include "../detail/cudajudge_collective.h"
#include "../thread/thread_operators.cuh"

namespace cub {

template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpScan {
    struct Storage {
        T items[LOGICAL_WARP_THREADS];
    };

public:
    struct TempStorage : Storage {};

    explicit WarpScan(TempStorage& temp_storage) : storage_(temp_storage) {}

    void InclusiveSum(T input, T& output, CUDAJUDGE_CALL_LINE) { T total; scan(input, output, std::plus<>{}, true, nullptr, total, line); }
    void InclusiveSum(T input, T& output, T& warp_aggregate, CUDAJUDGE_CALL_LINE) {
        scan(input, output, std::plus<>{}, true, nullptr, warp_aggregate, line);
    }
    void ExclusiveSum(T input, T& output, CUDAJUDGE_CALL_LINE) {
        T zero = T(), total;
        scan(input, output, std::plus<>{}, false, &zero, total, line);
    }
    void ExclusiveSum(T input, T& output, T& warp_aggregate, CUDAJUDGE_CALL_LINE) {
        T zero = T();
        scan(input, output, std::plus<>{}, false, &zero, warp_aggregate, line);
    }
    template <class Op>
    void InclusiveScan(T input, T& output, Op op, CUDAJUDGE_CALL_LINE) { T total; scan(input, output, op, true, nullptr, total, line); }
    template <class Op>
    void InclusiveScan(T input, T& output, Op op, T& warp_aggregate, CUDAJUDGE_CALL_LINE) {
        scan(input, output, op, true, nullptr, warp_aggregate, line);
    }
    // Without an initial value lane 0's output is undefined, as in CUB.
    template <class Op>
    void ExclusiveScan(T input, T& output, Op op, CUDAJUDGE_CALL_LINE) { T total; scan(input, output, op, false, nullptr, total, line); }
    template <class Op>
    void ExclusiveScan(T input, T& output, T initial_value, Op op, CUDAJUDGE_CALL_LINE) {
        T total;
        scan(input, output, op, false, &initial_value, total, line);
    }
    template <class Op>
    void ExclusiveScan(T input, T& output, T initial_value, Op op, T& warp_aggregate, CUDAJUDGE_CALL_LINE) {
        scan(input, output, op, false, &initial_value, warp_aggregate, line);
    }
    T Broadcast(T input, unsigned int src_lane, CUDAJUDGE_CALL_LINE) {
        storage_.items[warp_.lane] = input;
        cudajudge_detail::warp_sync(warp_.mask, "cub::WarpScan::Broadcast", line);
        T value = storage_.items[src_lane];
        cudajudge_detail::warp_sync(warp_.mask, "cub::WarpScan::Broadcast", line);
        return value;
    }

private:
    template <class Op>
    void scan(T input, T& output, Op op, bool inclusive, const T* initial, T& aggregate, cudajudge_detail::CallLine line) {
        storage_.items[warp_.lane] = input;
        cudajudge_detail::warp_sync(warp_.mask, "cub::WarpScan", line);
        T running = storage_.items[0];
        for (int i = 1; i <= warp_.lane; ++i) running = op(running, storage_.items[i]);   // inclusive, up to this lane
        T total = running;
        for (int i = warp_.lane + 1; i < LOGICAL_WARP_THREADS; ++i) total = op(total, storage_.items[i]);
        aggregate = total;
        if (inclusive) {
            output = running;
        } else if (warp_.lane == 0) {
            output = initial ? *initial : cudajudge_detail::indeterminate<T>();
        } else {
            T before = storage_.items[0];
            for (int i = 1; i < warp_.lane; ++i) before = op(before, storage_.items[i]);
            output = initial ? op(*initial, before) : before;
        }
        cudajudge_detail::warp_sync(warp_.mask, "cub::WarpScan", line);
    }

    Storage& storage_;
    cudajudge_detail::LogicalWarp<LOGICAL_WARP_THREADS> warp_;
};

}  // namespace cub
