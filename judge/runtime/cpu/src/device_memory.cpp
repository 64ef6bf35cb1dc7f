#include "device_memory.h"

#include <cstring>

#include "device_access.h"
#include "host_buffers.h"
#include "memory_observer.h"
#include "outcome.h"
#include "settings.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define CUDAJUDGE_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define CUDAJUDGE_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define CUDAJUDGE_POISON(p, n) ((void)(p), (void)(n))
#define CUDAJUDGE_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace cudajudge::detail {

namespace {

constexpr size_t alignment = 256;  // what cudaMalloc guarantees
constexpr size_t guard_bytes = 256;
// Fresh buffers hold this byte, not zeros: a kernel that reads memory it never wrote (a counter
// that was never cudaMemset) must not pass by luck.
constexpr unsigned char fresh_byte = 0xCD;

unsigned char guard_byte(size_t i) { return static_cast<unsigned char>((i * 0x9Du + 0x5Bu) ^ (i >> 5)); }

void fill_guard(unsigned char* p, size_t n, size_t first) {
    for (size_t i = 0; i < n; ++i) p[i] = guard_byte(first + i);
}

// How many bytes of a guard differ from its pattern, and the farthest from the buffer.
size_t changed(const unsigned char* p, size_t n, size_t first, size_t* farthest, bool before) {
    size_t count = 0;
    for (size_t i = 0; i < n; ++i) {
        if (p[i] == guard_byte(first + i)) continue;
        ++count;
        size_t distance = before ? n - i : i + 1;
        if (distance > *farthest) *farthest = distance;
    }
    return count;
}

}  // namespace

DeviceMemory& device_memory() {
    static DeviceMemory* instance = new DeviceMemory;
    return *instance;
}

cudaError_t DeviceMemory::allocate(void** out, size_t size, int line) {
    if (!out) return cudaErrorInvalidValue;
    *out = nullptr;
    if (size == 0) return cudaSuccess;
    std::lock_guard<std::mutex> lock(mutex_);
    const size_t limit = settings().arena_bytes;
    if (size > limit || in_use_ > limit - size) {
        outcome().record_error(Verdict::memory_limit, "out_of_memory",
                               "cudaMalloc of " + std::to_string(size) + " bytes at line " + std::to_string(line) +
                                   " does not fit: solve() may use " + std::to_string(limit) +
                                   " bytes of device memory and " + std::to_string(in_use_) + " are allocated");
        return cudaErrorMemoryAllocation;
    }
    const size_t padded = (size + alignment - 1) / alignment * alignment;
    const size_t back_guard = padded - size + guard_bytes;
    // Pages of its own (fenced, as the harness's buffers are): they are closed to host code (device_access.h).
    auto* base = static_cast<unsigned char*>(allocate_fenced(guard_bytes + padded + guard_bytes));
    if (!base) {
        outcome().record_error(Verdict::memory_limit, "out_of_memory",
                               "cudaMalloc of " + std::to_string(size) + " bytes on line " + std::to_string(line) + " failed: the host is out of memory");
        return cudaErrorMemoryAllocation;
    }
    unsigned char* user = base + guard_bytes;
    std::memset(user, fresh_byte, size);
    const Buffer buffer{base, size, back_guard, line};
    arm_guards(buffer);
    buffers_[reinterpret_cast<uintptr_t>(user)] = buffer;
    add_device_region(user, size, guard_bytes, back_guard);
    name_global(user, size, guard_bytes, back_guard, "the " + std::to_string(size) + "-byte cudaMalloc buffer from line " + std::to_string(line), 0);
    in_use_ += size;
    *out = user;
    return cudaSuccess;
}

void DeviceMemory::arm_guards(const Buffer& buffer) {
    CUDAJUDGE_UNPOISON(buffer.base, guard_bytes);
    CUDAJUDGE_UNPOISON(buffer.base + guard_bytes + buffer.size, buffer.back_guard);
    fill_guard(buffer.base, guard_bytes, 0);
    fill_guard(buffer.base + guard_bytes + buffer.size, buffer.back_guard, guard_bytes);
    CUDAJUDGE_POISON(buffer.base, guard_bytes);
    CUDAJUDGE_POISON(buffer.base + guard_bytes + buffer.size, buffer.back_guard);
}

void DeviceMemory::free_buffer(const Buffer& buffer) {
    forget_global(buffer.base + guard_bytes);
    remove_device_region(buffer.base + guard_bytes);
    CUDAJUDGE_UNPOISON(buffer.base, guard_bytes + buffer.size + buffer.back_guard);
    free_fenced(buffer.base);
    in_use_ -= buffer.size;
}

cudaError_t DeviceMemory::release(void* ptr, int line) {
    if (!ptr) return cudaSuccess;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = buffers_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == buffers_.end()) return cudaErrorInvalidValue;
    std::string damage = check(it->second);
    if (!damage.empty())
        outcome().record_error(Verdict::runtime_error, "out_of_bounds", damage + " (found at cudaFree on line " + std::to_string(line) + ")");
    free_buffer(it->second);
    buffers_.erase(it);
    return cudaSuccess;
}

std::string DeviceMemory::overrun(const void* ptr, size_t count) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    auto it = buffers_.upper_bound(address);
    if (it == buffers_.begin()) return "";
    --it;
    const Buffer& buffer = it->second;
    const uintptr_t end = it->first + buffer.size;
    if (address >= end + buffer.back_guard || address + count <= end) return "";
    return std::to_string(address + count - end) + " bytes past the end of the " + std::to_string(buffer.size) +
           "-byte cudaMalloc buffer allocated on line " + std::to_string(buffer.line);
}

bool DeviceMemory::holds(const void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto address = reinterpret_cast<uintptr_t>(ptr);
    auto it = buffers_.upper_bound(address);
    if (it == buffers_.begin()) return false;
    --it;
    return address < it->first + it->second.size + it->second.back_guard;
}

std::string DeviceMemory::check(const Buffer& buffer) const {
    CUDAJUDGE_UNPOISON(buffer.base, guard_bytes);
    CUDAJUDGE_UNPOISON(buffer.base + guard_bytes + buffer.size, buffer.back_guard);
    size_t after = 0, before = 0;
    const size_t changed_after = changed(buffer.base + guard_bytes + buffer.size, buffer.back_guard, guard_bytes, &after, false);
    const size_t changed_before = changed(buffer.base, guard_bytes, 0, &before, true);
    CUDAJUDGE_POISON(buffer.base, guard_bytes);
    CUDAJUDGE_POISON(buffer.base + guard_bytes + buffer.size, buffer.back_guard);
    const std::string which = "the " + std::to_string(buffer.size) + "-byte cudaMalloc buffer allocated on line " + std::to_string(buffer.line);
    if (changed_after)
        return "out-of-bounds write: " + std::to_string(after) + " bytes after the end of " + which + " were overwritten";
    if (changed_before)
        return "out-of-bounds write: " + std::to_string(before) + " bytes before the start of " + which + " were overwritten";
    return "";
}

std::string DeviceMemory::damaged_guards() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [address, buffer] : buffers_) {
        std::string damage = check(buffer);
        if (damage.empty()) continue;
        arm_guards(buffer);   // buffers outlive calls: the next call reports only its own damage
        return damage;
    }
    return "";
}

size_t DeviceMemory::in_use() {
    std::lock_guard<std::mutex> lock(mutex_);
    return in_use_;
}

}  // namespace cudajudge::detail
