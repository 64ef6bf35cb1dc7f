// The words of the block-level diagnostics: stalls (barrier divergence, deadlock), exits,
// and faults caught in a kernel.
#pragma once

#include <string>

#include "block_run.h"
#include "worker.h"

namespace cudajudge::detail {

// "exited (returned on line 12)", "exited (reached the end of the kernel on line 30)".
std::string exit_text(int exit_kind, int line);

// Which threads wait where and which exited, for a block that can never finish.
std::string describe_stall(const BlockRun& block, bool divergence);

std::string describe_fault(const BlockRun& block, const FaultInfo& fault);
const char* fault_kind(const FaultInfo& fault);
cudaError_t fault_error(const FaultInfo& fault);

}  // namespace cudajudge::detail
