#include "kernel_attributes.h"

#include <map>
#include <mutex>

namespace cudajudge::detail {

namespace {
std::mutex mutex;
std::map<const void*, size_t>& limits_by_kernel() {
    static auto* map = new std::map<const void*, size_t>;
    return *map;
}
}  // namespace

void set_max_dynamic_shared(const void* kernel, size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    limits_by_kernel()[kernel] = bytes;
}

size_t max_dynamic_shared(const void* kernel) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = limits_by_kernel().find(kernel);
    return it == limits_by_kernel().end() ? 0 : it->second;
}

void reset_kernel_attributes() {
    std::lock_guard<std::mutex> lock(mutex);
    limits_by_kernel().clear();
}

}  // namespace cudajudge::detail
