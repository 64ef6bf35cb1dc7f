#include "host_buffers.h"

#include <sys/mman.h>
#include <unistd.h>

#include <map>
#include <mutex>

namespace cudajudge::detail {

namespace {

constexpr size_t alignment = 256;  // what cudaMalloc guarantees

struct Mapping {
    void* base;
    size_t length;
};

std::mutex mutex;

std::map<void*, Mapping>& mappings() {
    static auto* map = new std::map<void*, Mapping>;
    return *map;
}

}  // namespace

void* allocate_fenced(size_t bytes) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t span = (bytes + page - 1) / page * page;
    auto* base = static_cast<char*>(mmap(nullptr, span + 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (base == MAP_FAILED) return nullptr;
    mprotect(base, page, PROT_NONE);
    mprotect(base + page + span, page, PROT_NONE);
    // The buffer ends as close to the fence after it as the alignment allows.
    char* buffer = base + page + ((span - bytes) & ~(alignment - 1));
    std::lock_guard<std::mutex> lock(mutex);
    mappings()[buffer] = {base, span + 2 * page};
    return buffer;
}

bool free_fenced(void* ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = mappings().find(ptr);
    if (it == mappings().end()) return false;
    munmap(it->second.base, it->second.length);
    mappings().erase(it);
    return true;
}

}  // namespace cudajudge::detail
