#include "device_access.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "diagnostics.h"
#include "fault_handler.h"
#include "kernel_names.h"
#include "memory_observer.h"
#include "outcome.h"

namespace cudajudge::detail {

namespace {

struct Pages {
    uintptr_t start, end;                  // the buffer's pages, its guards included
    uintptr_t payload_start, payload_end;  // the pages of the bytes it names
};

std::mutex mutex;
std::map<uintptr_t, Pages>& regions() {   // by the start their owner gave
    static auto* map = new std::map<uintptr_t, Pages>;
    return *map;
}
bool host_phase = false;   // solve() is running
int open_calls = 0;        // runtime calls in progress that opened device memory
bool reported = false;     // a host access was found in this call: the pages stay open

bool closed() { return host_phase && open_calls == 0 && !reported; }

// Closing or opening a page costs the kernel a page-table update, so a buffer larger than two edges has only
// its 64 KiB edges closed (a launch between two host-code stretches, with two 8 MB buffers: 21 us, against 159
// with the buffers closed whole and 1 us with nothing closed). A host loop over a buffer starts or ends in an
// edge, and the small tests' buffers are closed whole.
constexpr uintptr_t edge_bytes = 64 * 1024;

void set_access(const Pages& pages, bool open) {
    const int protection = open ? PROT_READ | PROT_WRITE : PROT_NONE;
    if (pages.end - pages.start <= 2 * edge_bytes) {
        mprotect(reinterpret_cast<void*>(pages.start), pages.end - pages.start, protection);
        return;
    }
    const uintptr_t first_end = std::min(pages.payload_start + edge_bytes, pages.end);
    const uintptr_t last_start = std::max(pages.payload_end - std::min(edge_bytes, pages.payload_end), pages.start);
    mprotect(reinterpret_cast<void*>(pages.payload_start), first_end - pages.payload_start, protection);
    mprotect(reinterpret_cast<void*>(last_start), pages.payload_end - last_start, protection);
}

void set_access(bool open) {
    for (const auto& [key, pages] : regions()) set_access(pages, open);
}

}  // namespace

void add_device_region(const void* base, size_t bytes, size_t before, size_t after) {
    static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto address = reinterpret_cast<uintptr_t>(base);
    const auto down = [](uintptr_t a) { return a & ~(page - 1); };
    const auto up = [](uintptr_t a) { return (a + page - 1) & ~(page - 1); };
    const Pages pages{down(address - before), up(address + bytes + after), down(address), up(address + bytes)};
    std::lock_guard<std::mutex> lock(mutex);
    regions()[address] = pages;
    if (closed()) set_access(pages, false);
}

void remove_device_region(const void* base) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = regions().find(reinterpret_cast<uintptr_t>(base));
    if (it == regions().end()) return;
    if (closed()) set_access(it->second, true);
    regions().erase(it);
}

void host_code_begins() {
    install_fault_handlers();
    std::lock_guard<std::mutex> lock(mutex);
    host_phase = true;
    open_calls = 0;
    reported = false;
    set_access(false);
}

void host_code_ends() {
    std::lock_guard<std::mutex> lock(mutex);
    if (closed()) set_access(true);
    host_phase = false;
}

bool host_touched_device_memory(const void* address, const void* pc, bool write) {
    // A fault while another thread holds the lock is left to the default action (the process ends, RE).
    std::unique_lock<std::mutex> lock(mutex, std::try_to_lock);
    if (!lock.owns_lock() || !closed()) return false;
    const auto at = reinterpret_cast<uintptr_t>(address);
    bool inside = false;   // in a closed edge; the middle of a large buffer is never closed
    for (const auto& [key, pages] : regions()) inside = inside || (at >= pages.start && at < pages.end);
    if (!inside) return false;
    reported = true;
    set_access(true);
    lock.unlock();
    // solve() itself is inlined into the judge's entry function (judge/entry.py), which then names it.
    std::string function = function_name_at(pc);
    function = function.substr(0, std::min(function.find('.'), function.find(" [clone")));   // GCC's copies: solve.localalias
    const bool in_solve = function.empty() || function == "solve" || function == "cudajudge_solve";
    const std::string who = in_solve ? "solve()" : "host function " + function;
    const std::string what = named_element(address).value_or("device memory");
    outcome().record_error(Verdict::runtime_error, "host_access",
                           who + " (host code)" + line_mark(pc) + (write ? " wrote " : " read ") + what +
                               ", which is device memory: on a GPU, host code cannot dereference a device pointer (the process "
                               "ends with a segmentation fault). Copy the data with cudaMemcpy, or do the work in a kernel");
    return true;
}

DeviceAccess::DeviceAccess() {
    std::lock_guard<std::mutex> lock(mutex);
    counted_ = host_phase;
    if (!counted_) return;
    if (open_calls++ == 0 && !reported) set_access(true);
}

DeviceAccess::~DeviceAccess() {
    if (!counted_) return;
    std::lock_guard<std::mutex> lock(mutex);
    if (--open_calls == 0 && host_phase && !reported) set_access(false);
}

}  // namespace cudajudge::detail
