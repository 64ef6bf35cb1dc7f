// Per-kernel settings made with cudaFuncSetAttribute.
#pragma once

#include <cstddef>

namespace cudajudge::detail {

void set_max_dynamic_shared(const void* kernel, size_t bytes);
// The opt-in limit set for the kernel, or 0 when none was set.
size_t max_dynamic_shared(const void* kernel);
void reset_kernel_attributes();

}  // namespace cudajudge::detail
