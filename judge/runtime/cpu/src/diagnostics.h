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

// Where `pc` lies in this library (the submission's build), as an offset its line tables know; false
// when it lies elsewhere.
bool library_offset(const void* pc, size_t* offset);
// A mark the CPU backend replaces with " on line N" (judge/compilation/debug_lines.py): the offset of the
// instruction at `pc` in this library, when it lies in this library; "" otherwise.
std::string line_mark(const void* pc);
// A mark the backend replaces with `same` when the instructions at `a` and `b` lie on one source
// line, else with `different`.
std::string line_choice(const void* a, const void* b, const std::string& same, const std::string& different);

std::string describe_fault(const BlockRun& block, const FaultInfo& fault);
const char* fault_kind(const FaultInfo& fault);
cudaError_t fault_error(const FaultInfo& fault);

}  // namespace cudajudge::detail
