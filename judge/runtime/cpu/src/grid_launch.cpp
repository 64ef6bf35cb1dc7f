// A kernel launch: validated like the GPU would, recorded in the launch log, run on the
// worker pool, then checked for damage to the guard bytes of cudaMalloc'd buffers.
#include <string>

#include "device_access.h"
#include "device_limits.h"
#include "device_memory.h"
#include "error_state.h"
#include "fault_handler.h"
#include "grid_job.h"
#include "kernel_attributes.h"
#include "kernel_names.h"
#include "memory_observer.h"
#include "outcome.h"
#include "worker.h"
#include "worker_pool.h"

namespace cudajudge::detail {

namespace {

const char* const axis[3] = {"x", "y", "z"};

unsigned int component(const dim3& d, int i) { return i == 0 ? d.x : i == 1 ? d.y : d.z; }

// The reason the GPU would refuse this launch, with the error it would return.
cudaError_t check_shape(const void* kernel, const LaunchShape& shape, std::string* why) {
    for (int i = 0; i < 3; ++i) {
        if (component(shape.block, i) == 0 || component(shape.grid, i) == 0) {
            *why = std::string(component(shape.block, i) == 0 ? "blockDim." : "gridDim.") + axis[i] + " is 0; every dimension must be at least 1";
            return cudaErrorInvalidConfiguration;
        }
        if (component(shape.block, i) > limits::max_block_dim[i]) {
            *why = std::string("blockDim.") + axis[i] + " = " + std::to_string(component(shape.block, i)) + " exceeds the limit of " +
                   std::to_string(limits::max_block_dim[i]);
            return cudaErrorInvalidConfiguration;
        }
        if (component(shape.grid, i) > limits::max_grid_dim[i]) {
            *why = std::string("gridDim.") + axis[i] + " = " + std::to_string(component(shape.grid, i)) + " exceeds the limit of " +
                   std::to_string(limits::max_grid_dim[i]);
            return cudaErrorInvalidConfiguration;
        }
    }
    const unsigned long long threads = 1ULL * shape.block.x * shape.block.y * shape.block.z;
    if (threads > static_cast<unsigned long long>(limits::max_threads_per_block)) {
        *why = "a block of " + std::to_string(threads) + " threads exceeds the limit of " + std::to_string(limits::max_threads_per_block);
        return cudaErrorInvalidConfiguration;
    }
    if (shape.shared_bytes > limits::shared_per_block) {
        const size_t opted = kernel ? max_dynamic_shared(kernel) : 0;
        if (shape.shared_bytes > limits::shared_per_block_optin) {
            *why = std::to_string(shape.shared_bytes) + " bytes of dynamic shared memory exceed the device maximum of " +
                   std::to_string(limits::shared_per_block_optin);
            return cudaErrorInvalidValue;
        }
        if (shape.shared_bytes > opted) {
            *why = std::to_string(shape.shared_bytes) + " bytes of dynamic shared memory exceed " +
                   (opted ? "the " + std::to_string(opted) + " bytes allowed with cudaFuncSetAttribute"
                          : "the default limit of " + std::to_string(limits::shared_per_block) +
                                " bytes; raise it first with cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)");
            return cudaErrorInvalidValue;
        }
    }
    return cudaSuccess;
}

}  // namespace

void launch_grid(const void* kernel, const char* kernel_name, const LaunchShape& shape, void (*run_thread)(const void*), const void* body) {
    install_fault_handlers();
    const DeviceAccess access;
    std::string name = kernel_name ? kernel_name : kernel_display_name(kernel);
    LaunchRecord record{name, {shape.grid.x, shape.grid.y, shape.grid.z}, {shape.block.x, shape.block.y, shape.block.z},
                        shape.shared_bytes, shape.line, cudaSuccess};
    const long index = outcome().add_launch(std::move(record));

    if (cudaError_t sticky = sticky_error()) {
        outcome().set_launch_status(index, sticky);
        return;
    }
    if (running_block()) {
        note_error(cudaErrorNotSupported);
        outcome().set_launch_status(index, cudaErrorNotSupported);
        outcome().record_error(Verdict::runtime_error, "launch_config",
                               "kernel launch from device code (" + describe_launch(name, shape) + "): dynamic parallelism is not supported",
                               index);
        return;
    }
    std::string why;
    if (cudaError_t error = check_shape(kernel, shape, &why)) {
        note_error(error);
        outcome().set_launch_status(index, error);
        outcome().record_error(Verdict::runtime_error, "launch_config", "invalid launch " + describe_launch(name, shape) + ": " + why, index);
        return;
    }

    GridJob job(std::move(name), index, shape, run_thread, body);
    observing = settings().observe;
    if (observing) observer_launch_begins(job);
    worker_pool().run(job);
    if (observing) observer_launch_ends();
    observing = false;
    job.flush_printf();
    if (job.failed()) {
        set_sticky_error(job.error());
        outcome().set_launch_status(index, job.error());
    }
    std::string damage = device_memory().damaged_guards();
    if (!damage.empty())
        outcome().record_error(Verdict::runtime_error, "out_of_bounds", damage + " (found after " + job.launch_text() + ")", index);
}

}  // namespace cudajudge::detail
