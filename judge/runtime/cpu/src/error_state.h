// CUDA's error reporting: the last error (cleared by cudaGetLastError) and the sticky error a
// failed kernel leaves, which every later call returns.
#pragma once

#include "runtime.h"

namespace cudajudge::detail {

// Records a failing result as the last error; returns it.
cudaError_t note_error(cudaError_t error);
cudaError_t take_last_error();
cudaError_t peek_last_error();
void set_sticky_error(cudaError_t error);
cudaError_t sticky_error();
void reset_errors();

}  // namespace cudajudge::detail
