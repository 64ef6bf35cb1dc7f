// <cub/block/block_discontinuity.cuh> on the CPU backend (see ../detail/cudajudge_collective.h):
// each thread's first and last items meet their neighbours' through TempStorage.
#pragma once
#include "../detail/cudajudge_collective.h"

namespace cub {

template <class T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockDiscontinuity {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    struct Storage {
        T first[BLOCK_THREADS];
        T last[BLOCK_THREADS];
    };

public:
    struct TempStorage : Storage {};

    explicit BlockDiscontinuity(TempStorage& temp_storage)
        : storage_(temp_storage), tid_(cudajudge_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    // head_flags[i] = 1 where item i differs from the one before it (flag_op(before, item) is true);
    // the tile's first item is a head, or is compared with tile_predecessor_item.
    template <int N, class Flag, class FlagOp>
    void FlagHeads(Flag (&head_flags)[N], T (&input)[N], FlagOp flag_op, CUDAJUDGE_CALL_LINE) {
        heads(head_flags, input, flag_op, nullptr, line);
    }
    template <int N, class Flag, class FlagOp>
    void FlagHeads(Flag (&head_flags)[N], T (&input)[N], FlagOp flag_op, T tile_predecessor_item, CUDAJUDGE_CALL_LINE) {
        heads(head_flags, input, flag_op, &tile_predecessor_item, line);
    }
    // tail_flags[i] = 1 where item i differs from the one after it (flag_op(item, after) is true);
    // the tile's last item is a tail, or is compared with tile_successor_item.
    template <int N, class Flag, class FlagOp>
    void FlagTails(Flag (&tail_flags)[N], T (&input)[N], FlagOp flag_op, CUDAJUDGE_CALL_LINE) {
        tails(tail_flags, input, flag_op, nullptr, line);
    }
    template <int N, class Flag, class FlagOp>
    void FlagTails(Flag (&tail_flags)[N], T (&input)[N], FlagOp flag_op, T tile_successor_item, CUDAJUDGE_CALL_LINE) {
        tails(tail_flags, input, flag_op, &tile_successor_item, line);
    }

private:
    template <int N, class Flag, class FlagOp>
    void heads(Flag (&flags)[N], T (&input)[N], FlagOp flag_op, const T* predecessor, cudajudge_detail::CallLine line) {
        storage_.last[tid_] = input[N - 1];
        cudajudge_detail::block_sync("cub::BlockDiscontinuity", line);
        if (tid_ > 0) flags[0] = flag_op(storage_.last[tid_ - 1], input[0]) ? 1 : 0;
        else flags[0] = predecessor ? (flag_op(*predecessor, input[0]) ? 1 : 0) : 1;
        for (int i = 1; i < N; ++i) flags[i] = flag_op(input[i - 1], input[i]) ? 1 : 0;
    }

    template <int N, class Flag, class FlagOp>
    void tails(Flag (&flags)[N], T (&input)[N], FlagOp flag_op, const T* successor, cudajudge_detail::CallLine line) {
        storage_.first[tid_] = input[0];
        cudajudge_detail::block_sync("cub::BlockDiscontinuity", line);
        if (tid_ < BLOCK_THREADS - 1) flags[N - 1] = flag_op(input[N - 1], storage_.first[tid_ + 1]) ? 1 : 0;
        else flags[N - 1] = successor ? (flag_op(input[N - 1], *successor) ? 1 : 0) : 1;
        for (int i = 0; i < N - 1; ++i) flags[i] = flag_op(input[i], input[i + 1]) ? 1 : 0;
    }

    Storage& storage_;
    int tid_;
};

}  // namespace cub
