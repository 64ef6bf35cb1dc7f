// Device memory closed to host code. On a GPU, solve()'s host code cannot dereference a device
// pointer: the process ends with a segmentation fault. Here device memory is host memory, so while
// solve()'s host code runs, the pages of every device buffer (the harness's and cudaMalloc's; of a
// large one, its first and last 64 KiB) are made inaccessible, and the runtime opens them for the
// calls that touch device memory (launches, copies, fills, the device-wide algorithms). A host
// access then faults; the fault is reported (RE, naming the buffer, the element and the line) and
// the pages stay open for the rest of the call.
#pragma once

#include <cstddef>

namespace cudajudge::detail {

// The `bytes` at `base` and the `before` and `after` guard bytes around them, rounded out to whole pages,
// are device memory; those pages must be the buffer's own.
void add_device_region(const void* base, size_t bytes, size_t before, size_t after);
void remove_device_region(const void* base);

// Around the harness's call of solve().
void host_code_begins();
void host_code_ends();

// Called by the fault handler for a fault outside a kernel: whether it was host code touching closed
// device memory (then recorded, and the pages opened so that the access can be retried).
bool host_touched_device_memory(const void* address, const void* pc, bool write);

// For the life of the scope, device memory is open to the calling runtime function.
class DeviceAccess {
public:
    DeviceAccess();
    ~DeviceAccess();
    DeviceAccess(const DeviceAccess&) = delete;
    DeviceAccess& operator=(const DeviceAccess&) = delete;

private:
    bool counted_;
};

}  // namespace cudajudge::detail
