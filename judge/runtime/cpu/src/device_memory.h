// cudaMalloc'd buffers: host memory under the arena cap, with guard bytes around each buffer
// that are checked after every launch and at cudaFree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "runtime.h"

namespace cudajudge::detail {

class DeviceMemory {
public:
    cudaError_t allocate(void** out, size_t size, int line);
    cudaError_t release(void* ptr, int line);
    // When [ptr, ptr + count) starts in a cudaMalloc buffer and runs past its end, says how.
    std::string overrun(const void* ptr, size_t count);
    // Whether ptr points into a live cudaMalloc buffer (its guard bytes included).
    bool holds(const void* ptr);
    // The first buffer whose guard bytes were overwritten, described (its guards are then restored);
    // "" when all are intact.
    std::string damaged_guards();
    size_t in_use();

private:
    struct Buffer {
        unsigned char* base;  // the allocation, front guard included
        size_t size;          // what the user asked for
        size_t back_guard;    // padding to the alignment plus the guard
        int line;
    };

    std::string check(const Buffer& buffer) const;
    void free_buffer(const Buffer& buffer);
    static void arm_guards(const Buffer& buffer);   // fills both guards with their pattern and poisons them

    std::mutex mutex_;
    std::map<uintptr_t, Buffer> buffers_;  // by the address handed to the user
    size_t in_use_ = 0;
};

DeviceMemory& device_memory();

}  // namespace cudajudge::detail
