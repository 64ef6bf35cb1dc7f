// In an AddressSanitizer build: each report (the build keeps running after one) becomes the
// launch's error, naming the kernel, block, thread and the line in the submission.
#if defined(__SANITIZE_ADDRESS__)

#include <sanitizer/asan_interface.h>

#include <string>

#include "block_run.h"
#include "outcome.h"
#include "worker.h"

using namespace cudajudge::detail;

namespace {

// The word after `label` in the report ("heap-buffer-overflow" after "AddressSanitizer: ").
std::string word_after(const std::string& report, const std::string& label) {
    size_t at = report.find(label);
    if (at == std::string::npos) return "";
    at += label.size();
    return report.substr(at, report.find_first_of(" \n", at) - at);
}

// The line of the first stack frame in the submission: it is compiled from a relative path,
// so its frames are the first ones whose file is not absolute ("in k(float*) sol.cu:21").
std::string user_line(const std::string& report) {
    size_t start = 0;
    while (start < report.size()) {
        size_t end = report.find('\n', start);
        if (end == std::string::npos) end = report.size();
        std::string row = report.substr(start, end - start);
        start = end + 1;
        if (row.find(" in ") == std::string::npos || row.find('#') == std::string::npos) continue;
        std::string location = row.substr(row.find_last_of(' ') + 1);
        size_t colon = location.find(':');
        if (location.empty() || location[0] == '/' || location[0] == '(' || colon == std::string::npos) continue;
        size_t digits = location.find_first_not_of("0123456789", colon + 1);
        std::string line = location.substr(colon + 1, digits == std::string::npos ? std::string::npos : digits - colon - 1);
        if (!line.empty()) return line;
    }
    return "";
}

// "write of 4 bytes on line 21 (AddressSanitizer: heap-buffer-overflow)". Runs on the faulting
// thread's fiber stack, so it stays simple (no regular expressions: they recurse deeply).
std::string summary(const std::string& report) {
    std::string kind = word_after(report, "ERROR: AddressSanitizer: ");
    // The runtime poisons the guard bytes around cudaMalloc'd buffers.
    if (kind == "use-after-poison") kind = "outside a cudaMalloc buffer";
    std::string text;
    for (const char* access : {"READ", "WRITE"}) {
        std::string size = word_after(report, std::string(access) + " of size ");
        if (!size.empty()) text = std::string(access[0] == 'R' ? "read" : "write") + " of " + size + " bytes";
    }
    if (text.empty()) text = "access";
    std::string line = user_line(report);
    if (!line.empty()) text += " on line " + line;
    return text + " (AddressSanitizer: " + kind + ")";
}

void on_report(const char* report) {
    std::string text = summary(report);
    if (BlockRun* block = running_block()) {
        block->record_failure(Verdict::runtime_error, "sanitizer",
                              "invalid memory access in " + block->block_text() + " " + block->thread_text(block->running_thread()) + ": " + text,
                              cudaErrorIllegalAddress);
        return;
    }
    outcome().record_error(Verdict::runtime_error, "sanitizer", "invalid memory access in host code: " + text);
}

__attribute__((constructor)) void listen_for_reports() { __asan_set_error_report_callback(&on_report); }

}  // namespace

#endif
