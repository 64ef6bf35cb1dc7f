#include "diagnostics.h"

#include <dlfcn.h>

#include <csignal>
#include <cstdio>
#include <vector>

#include "kernel_names.h"

namespace cudajudge::detail {

namespace {

constexpr size_t max_groups = 8;
constexpr size_t max_ranges = 6;

struct ThreadGroup {
    std::string state;  // "wait at __syncthreads() on line 18", "exited (returned on line 12)"
    std::vector<std::pair<int, int>> ranges;
    int threads = 0;
};

std::string state_text(const ThreadSlot& slot) {
    char mask[32];
    switch (slot.state) {
        case ThreadState::exited: return exit_text(slot.exit_kind, slot.line);
        case ThreadState::at_barrier: return std::string("wait at ") + slot.api + " on line " + std::to_string(slot.line);
        case ThreadState::at_warp:
            std::snprintf(mask, sizeof mask, "0x%08x", slot.mask);
            return std::string("wait at ") + slot.api + " (mask " + mask + ") on line " + std::to_string(slot.line);
        case ThreadState::converging: return "wait at __activemask() on line " + std::to_string(slot.line);
        default: return "are still running";
    }
}

std::string group_text(const ThreadGroup& group) {
    std::string text = group.threads == 1 ? "thread " : "threads ";
    for (size_t i = 0; i < group.ranges.size() && i < max_ranges; ++i) {
        const auto& [first, last] = group.ranges[i];
        if (i) text += ", ";
        text += std::to_string(first);
        if (last != first) text += ".." + std::to_string(last);
    }
    if (group.ranges.size() > max_ranges) text += " and " + std::to_string(group.ranges.size() - max_ranges) + " more ranges";
    std::string state = group.state;
    // One thread "waits"; several "wait".
    if (group.threads == 1 && state.compare(0, 5, "wait ") == 0) state.insert(4, "s");
    return text + " " + state;
}

}  // namespace

std::string exit_text(int exit_kind, int line) {
    switch (exit_kind) {
        case exit_return: return "exited (returned on line " + std::to_string(line) + ")";
        case exit_end: return "exited (reached the end of the kernel on line " + std::to_string(line) + ")";
        default: return "exited";
    }
}

std::string describe_stall(const BlockRun& block, bool divergence) {
    std::vector<ThreadGroup> groups;
    for (unsigned int t = 0; t < block.thread_count(); ++t) {
        std::string state = state_text(block.slot(static_cast<int>(t)));
        ThreadGroup* group = nullptr;
        for (auto& g : groups)
            if (g.state == state) group = &g;
        if (!group) {
            groups.push_back({state, {}, 0});
            group = &groups.back();
        }
        if (!group->ranges.empty() && group->ranges.back().second == static_cast<int>(t) - 1)
            group->ranges.back().second = static_cast<int>(t);
        else
            group->ranges.emplace_back(t, t);
        ++group->threads;
    }
    std::string text = std::string(divergence ? "barrier divergence" : "deadlock") + " in " + block.block_text() + ": ";
    for (size_t i = 0; i < groups.size() && i < max_groups; ++i) text += (i ? ", " : "") + group_text(groups[i]);
    if (groups.size() > max_groups) text += ", and " + std::to_string(groups.size() - max_groups) + " more groups of threads";
    const dim3& b = block.job().shape.block;
    if (b.y != 1 || b.z != 1) text += " (threads numbered x + y*blockDim.x + z*blockDim.x*blockDim.y)";
    return text + " (" + block.job().launch_text() + ")";
}

const char* fault_kind(const FaultInfo& fault) {
    switch (fault.signal) {
        case SIGFPE: return "arithmetic_error";
        case SIGILL: return "illegal_instruction";
        default: return this_worker().fibers.guard_owner(fault.address) ? "stack_overflow" : "illegal_address";
    }
}

cudaError_t fault_error(const FaultInfo& fault) {
    switch (fault.signal) {
        case SIGFPE: return cudaErrorLaunchFailure;
        case SIGILL: return cudaErrorIllegalInstruction;
        default: return this_worker().fibers.guard_owner(fault.address) ? cudaErrorLaunchFailure : cudaErrorIllegalAddress;
    }
}

bool library_offset(const void* pc, size_t* offset) {
    static const void* const own_base = [] {
        Dl_info self{};
        return dladdr(reinterpret_cast<const void*>(&library_offset), &self) ? self.dli_fbase : nullptr;
    }();
    Dl_info at{};
    if (!pc || !own_base || !dladdr(pc, &at) || at.dli_fbase != own_base) return false;
    *offset = static_cast<size_t>(static_cast<const char*>(pc) - static_cast<const char*>(at.dli_fbase));
    return true;
}

static std::string hex(size_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "%zx", value);
    return text;
}

std::string line_mark(const void* pc) {
    size_t offset;
    return library_offset(pc, &offset) ? "\x1f" + hex(offset) + "\x1f" : "";
}

std::string line_choice(const void* a, const void* b, const std::string& same, const std::string& different) {
    size_t first, second;
    if (!library_offset(a, &first) || !library_offset(b, &second)) return different;
    return "\x1d" + hex(first) + "\x1d" + hex(second) + "\x1d" + same + "\x1d" + different + "\x1d";
}

std::string describe_fault(const BlockRun& block, const FaultInfo& fault) {
    const std::string kind = fault_kind(fault);
    std::string who = block.block_text() + (fault.thread >= 0 ? " " + block.thread_text(fault.thread) : "");
    std::string function = function_name_at(fault.pc);
    std::string in_function = (function.empty() ? "" : " in function " + function) + line_mark(fault.pc);
    std::string text;
    if (kind == "stack_overflow") {
        text = "stack overflow in " + who + ": the thread used more than " + std::to_string(block.job().stack_bytes / 1024) +
               " KiB of stack (deep recursion or large local arrays)" + in_function;
    } else if (fault.signal == SIGFPE) {
        const char* what = fault.code == FPE_INTDIV ? "integer division by zero" : fault.code == FPE_INTOVF ? "integer overflow in division" : "arithmetic exception";
        text = "arithmetic error in " + who + ": " + what + in_function;
    } else if (fault.signal == SIGILL) {
        text = "illegal instruction in " + who + in_function + " (unreachable code reached?)";
    } else {
        char address[32];
        std::snprintf(address, sizeof address, "%p", fault.address);
        text = "illegal memory access in " + who + ": invalid " + (fault.write ? "write to" : "read of") + " address " + address + in_function;
    }
    return text + " (" + block.job().launch_text() + ")";
}

}  // namespace cudajudge::detail
