// <cub/block/block_scan.cuh> on the CPU backend (see ../detail/cudajudge_collective.h).
#pragma once
#include "../detail/cudajudge_collective.h"
#include "../thread/thread_operators.cuh"

namespace cub {

enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };

template <class T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1,
          int LEGACY_PTX_ARCH = 0>
class BlockScan {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    struct Storage {
        T totals[BLOCK_THREADS];     // each thread's reduction of its items
        T exclusive[BLOCK_THREADS];  // the reduction of the threads before it
        T aggregate;
        T prefix;                    // what the prefix callback returned in lane 0
    };
    struct NoCallback {
        T operator()(const T& total) const { return total; }
    };
    enum class Seed { none, initial, callback };

public:
    struct TempStorage : Storage {};

    explicit BlockScan(TempStorage& temp_storage)
        : storage_(temp_storage), tid_(cudajudge_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    // ---- sums
    void ExclusiveSum(T input, T& output, CUDAJUDGE_CALL_LINE) { ExclusiveScan(input, output, T(), std::plus<>{}, line); }
    void ExclusiveSum(T input, T& output, T& block_aggregate, CUDAJUDGE_CALL_LINE) {
        ExclusiveScan(input, output, T(), std::plus<>{}, block_aggregate, line);
    }
    template <class Callback>
    void ExclusiveSum(T input, T& output, Callback& callback, CUDAJUDGE_CALL_LINE) {
        ExclusiveScan(input, output, std::plus<>{}, callback, line);
    }
    template <int N>
    void ExclusiveSum(T (&input)[N], T (&output)[N], CUDAJUDGE_CALL_LINE) { ExclusiveScan(input, output, T(), std::plus<>{}, line); }
    template <int N>
    void ExclusiveSum(T (&input)[N], T (&output)[N], T& block_aggregate, CUDAJUDGE_CALL_LINE) {
        ExclusiveScan(input, output, T(), std::plus<>{}, block_aggregate, line);
    }
    template <int N, class Callback>
    void ExclusiveSum(T (&input)[N], T (&output)[N], Callback& callback, CUDAJUDGE_CALL_LINE) {
        ExclusiveScan(input, output, std::plus<>{}, callback, line);
    }
    void InclusiveSum(T input, T& output, CUDAJUDGE_CALL_LINE) { InclusiveScan(input, output, std::plus<>{}, line); }
    void InclusiveSum(T input, T& output, T& block_aggregate, CUDAJUDGE_CALL_LINE) {
        InclusiveScan(input, output, std::plus<>{}, block_aggregate, line);
    }
    template <class Callback>
    void InclusiveSum(T input, T& output, Callback& callback, CUDAJUDGE_CALL_LINE) {
        InclusiveScan(input, output, std::plus<>{}, callback, line);
    }
    template <int N>
    void InclusiveSum(T (&input)[N], T (&output)[N], CUDAJUDGE_CALL_LINE) { InclusiveScan(input, output, std::plus<>{}, line); }
    template <int N>
    void InclusiveSum(T (&input)[N], T (&output)[N], T& block_aggregate, CUDAJUDGE_CALL_LINE) {
        InclusiveScan(input, output, std::plus<>{}, block_aggregate, line);
    }
    template <int N, class Callback>
    void InclusiveSum(T (&input)[N], T (&output)[N], Callback& callback, CUDAJUDGE_CALL_LINE) {
        InclusiveScan(input, output, std::plus<>{}, callback, line);
    }

    // ---- scans with an operator: one item per thread
    template <class Op>
    void ExclusiveScan(T input, T& output, T initial_value, Op op, CUDAJUDGE_CALL_LINE) {
        T aggregate;
        ExclusiveScan(input, output, initial_value, op, aggregate, line);
    }
    template <class Op>
    void ExclusiveScan(T input, T& output, T initial_value, Op op, T& block_aggregate, CUDAJUDGE_CALL_LINE) {
        T in[1] = {input}, out[1];
        NoCallback none;
        scan<1>(in, out, op, false, Seed::initial, initial_value, block_aggregate, none, line);
        output = out[0];
    }
    template <class Op, class Callback>
    void ExclusiveScan(T input, T& output, Op op, Callback& callback, CUDAJUDGE_CALL_LINE) {
        T in[1] = {input}, out[1], aggregate;
        scan<1>(in, out, op, false, Seed::callback, T(), aggregate, callback, line);
        output = out[0];
    }
    template <class Op>
    void ExclusiveScan(T input, T& output, Op op, CUDAJUDGE_CALL_LINE) {
        T in[1] = {input}, out[1], aggregate;
        NoCallback none;
        scan<1>(in, out, op, false, Seed::none, T(), aggregate, none, line);
        output = out[0];
    }
    template <class Op>
    void InclusiveScan(T input, T& output, Op op, CUDAJUDGE_CALL_LINE) {
        T aggregate;
        InclusiveScan(input, output, op, aggregate, line);
    }
    template <class Op>
    void InclusiveScan(T input, T& output, Op op, T& block_aggregate, CUDAJUDGE_CALL_LINE) {
        T in[1] = {input}, out[1];
        NoCallback none;
        scan<1>(in, out, op, true, Seed::none, T(), block_aggregate, none, line);
        output = out[0];
    }
    template <class Op, class Callback>
    void InclusiveScan(T input, T& output, Op op, Callback& callback, CUDAJUDGE_CALL_LINE) {
        T in[1] = {input}, out[1], aggregate;
        scan<1>(in, out, op, true, Seed::callback, T(), aggregate, callback, line);
        output = out[0];
    }

    // ---- scans with an operator: ITEMS_PER_THREAD items per thread, in a blocked arrangement
    template <int N, class Op>
    void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, Op op, CUDAJUDGE_CALL_LINE) {
        T aggregate;
        ExclusiveScan(input, output, initial_value, op, aggregate, line);
    }
    template <int N, class Op>
    void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, Op op, T& block_aggregate, CUDAJUDGE_CALL_LINE) {
        NoCallback none;
        scan<N>(input, output, op, false, Seed::initial, initial_value, block_aggregate, none, line);
    }
    template <int N, class Op, class Callback>
    void ExclusiveScan(T (&input)[N], T (&output)[N], Op op, Callback& callback, CUDAJUDGE_CALL_LINE) {
        T aggregate;
        scan<N>(input, output, op, false, Seed::callback, T(), aggregate, callback, line);
    }
    template <int N, class Op>
    void InclusiveScan(T (&input)[N], T (&output)[N], Op op, CUDAJUDGE_CALL_LINE) {
        T aggregate;
        InclusiveScan(input, output, op, aggregate, line);
    }
    template <int N, class Op>
    void InclusiveScan(T (&input)[N], T (&output)[N], Op op, T& block_aggregate, CUDAJUDGE_CALL_LINE) {
        NoCallback none;
        scan<N>(input, output, op, true, Seed::none, T(), block_aggregate, none, line);
    }
    template <int N, class Op, class Callback>
    void InclusiveScan(T (&input)[N], T (&output)[N], Op op, Callback& callback, CUDAJUDGE_CALL_LINE) {
        T aggregate;
        scan<N>(input, output, op, true, Seed::callback, T(), aggregate, callback, line);
    }

private:
    // Each thread scans its own items, the block scans the threads' totals, and each thread then
    // applies what comes before it: the initial value, the callback's prefix, the threads before.
    template <int N, class Op, class Callback>
    void scan(const T (&input)[N], T (&output)[N], Op op, bool inclusive, Seed seed, const T& initial, T& aggregate,
              Callback& callback, cudajudge_detail::CallLine line) {
        T total = input[0];
        for (int i = 1; i < N; ++i) total = op(total, input[i]);
        storage_.totals[tid_] = total;
        cudajudge_detail::block_sync("cub::BlockScan", line);
        if (tid_ == 0) {
            T running = storage_.totals[0];
            for (int t = 1; t < BLOCK_THREADS; ++t) {
                storage_.exclusive[t] = running;
                running = op(running, storage_.totals[t]);
            }
            storage_.aggregate = running;
        }
        cudajudge_detail::block_sync("cub::BlockScan", line);
        if (seed == Seed::callback) {
            if (tid_ < 32) {
                T prefix = callback(storage_.aggregate);
                if (tid_ == 0) storage_.prefix = prefix;
            }
            cudajudge_detail::block_sync("cub::BlockScan", line);
        }
        aggregate = storage_.aggregate;
        // What comes before this thread's first item; `known` is false where CUB leaves it undefined.
        bool known = tid_ > 0 || seed != Seed::none;
        T before = tid_ > 0 ? storage_.exclusive[tid_] : T();
        if (seed == Seed::initial) before = tid_ > 0 ? op(initial, before) : initial;
        if (seed == Seed::callback) before = tid_ > 0 ? op(storage_.prefix, before) : storage_.prefix;
        T running = before;
        for (int i = 0; i < N; ++i) {
            if (inclusive) {
                running = (known || i > 0) ? op(running, input[i]) : input[i];
                output[i] = running;
            } else {
                output[i] = (known || i > 0) ? running : cudajudge_detail::indeterminate<T>();
                running = (known || i > 0) ? op(running, input[i]) : input[i];
            }
        }
    }

    Storage& storage_;
    int tid_;
};

}  // namespace cub
