// Names of kernels and of the functions faults happen in, from the library's own symbols.
#pragma once

#include <string>

namespace cudajudge::detail {

// "scan_tiles" or "reduce<256>" for a kernel's entry address.
std::string kernel_display_name(const void* kernel);
// The function containing a code address, or "" when unknown.
std::string function_name_at(const void* pc);

}  // namespace cudajudge::detail
