// What each lane of a completed warp primitive receives.
#pragma once

#include "block_run.h"

namespace cudajudge::detail {

// `warp` points at lane 0's slot; `lanes` are the participants, all waiting at the same
// operation with the same mask. Fills in each participant's result.
void exchange_in_warp(ThreadSlot* warp, unsigned int lanes);

}  // namespace cudajudge::detail
