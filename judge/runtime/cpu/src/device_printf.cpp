// printf and assert in kernels. The build links with -Bsymbolic, so the submission's calls
// bind to these definitions; calls from host code fall through to the C library.
#include <cassert>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "block_run.h"
#include "worker.h"

using namespace cudajudge::detail;

// Kernel output is buffered per thread and written out in thread order, block by block.
extern "C" int printf(const char* __restrict format, ...) {
    va_list args;
    va_start(args, format);
    int written;
    if (BlockRun* block = running_block()) {
        va_list measure;
        va_copy(measure, args);
        written = std::vsnprintf(nullptr, 0, format, measure);
        va_end(measure);
        if (written > 0) {
            std::string text(static_cast<size_t>(written), '\0');
            std::vsnprintf(text.data(), text.size() + 1, format, args);
            block->kernel_printf(std::move(text));
        }
    } else {
        written = std::vprintf(format, args);
    }
    va_end(args);
    return written;
}

// A failed assert in a kernel fails the launch (cudaErrorAssert) instead of aborting.
extern "C" void __assert_fail(const char* assertion, const char* file, unsigned int line, const char* function) noexcept {
    if (BlockRun* block = running_block())
        block->fail(Verdict::runtime_error, "assert",
                    "assertion `" + std::string(assertion) + "` failed in " + block->block_text() + " " +
                        block->thread_text(block->running_thread()) + " on line " + std::to_string(line),
                    cudaErrorAssert);
    std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, assertion);
    std::abort();
}
