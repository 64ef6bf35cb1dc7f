// Buffers the harness allocates for solve()'s arguments, fenced by inaccessible pages: a write
// that runs past the harness's guard bytes faults inside the kernel (and is reported with its
// kernel, block and thread) instead of corrupting the harness's heap.
#pragma once

#include <cstddef>

namespace cudajudge::detail {

void* allocate_fenced(size_t bytes);
// Returns whether `ptr` came from allocate_fenced (and is now freed).
bool free_fenced(void* ptr);

}  // namespace cudajudge::detail
