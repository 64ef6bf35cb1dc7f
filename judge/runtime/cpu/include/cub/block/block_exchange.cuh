// <cub/block/block_exchange.cuh> on the CPU backend (see ../detail/cudajudge_collective.h): items
// move between arrangements through TempStorage; as in CUB, input and output may be the same array.
#pragma once
#include "../detail/cudajudge_collective.h"

namespace cub {

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockExchange {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
    using Storage = cudajudge_detail::ExchangeTile<T, TILE, true>;
    using Items = T (&)[ITEMS_PER_THREAD];

public:
    struct TempStorage : Storage {};

    explicit BlockExchange(TempStorage& temp_storage)
        : storage_(temp_storage), tid_(cudajudge_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

    void StripedToBlocked(Items input, Items output, CUDAJUDGE_CALL_LINE) {
        exchange(input, output, [&](int i) { return i * BLOCK_THREADS + tid_; }, [&](int i) { return tid_ * ITEMS_PER_THREAD + i; }, line);
    }
    void BlockedToStriped(Items input, Items output, CUDAJUDGE_CALL_LINE) {
        exchange(input, output, [&](int i) { return tid_ * ITEMS_PER_THREAD + i; }, [&](int i) { return i * BLOCK_THREADS + tid_; }, line);
    }
    void WarpStripedToBlocked(Items input, Items output, CUDAJUDGE_CALL_LINE) {
        exchange(input, output, [&](int i) { return warp_striped(i); }, [&](int i) { return tid_ * ITEMS_PER_THREAD + i; }, line);
    }
    void BlockedToWarpStriped(Items input, Items output, CUDAJUDGE_CALL_LINE) {
        exchange(input, output, [&](int i) { return tid_ * ITEMS_PER_THREAD + i; }, [&](int i) { return warp_striped(i); }, line);
    }
    template <class Offset>
    void ScatterToBlocked(Items input, Items output, Offset (&ranks)[ITEMS_PER_THREAD], CUDAJUDGE_CALL_LINE) {
        exchange(input, output, [&](int i) { return static_cast<int>(ranks[i]); }, [&](int i) { return tid_ * ITEMS_PER_THREAD + i; }, line);
    }
    template <class Offset>
    void ScatterToStriped(Items input, Items output, Offset (&ranks)[ITEMS_PER_THREAD], CUDAJUDGE_CALL_LINE) {
        exchange(input, output, [&](int i) { return static_cast<int>(ranks[i]); }, [&](int i) { return i * BLOCK_THREADS + tid_; }, line);
    }

private:
    // Each warp's part of the tile, striped across its lanes.
    int warp_striped(int i) const {
        const int lane = tid_ % 32, warp = tid_ / 32;
        return warp * 32 * ITEMS_PER_THREAD + i * 32 + lane;
    }

    template <class From, class To>
    void exchange(Items input, Items output, From from, To to, cudajudge_detail::CallLine line) {
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) storage_.items[from(i)] = input[i];
        cudajudge_detail::block_sync("cub::BlockExchange", line);
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) output[i] = storage_.items[to(i)];
    }

    Storage& storage_;
    int tid_;
};

}  // namespace cub
