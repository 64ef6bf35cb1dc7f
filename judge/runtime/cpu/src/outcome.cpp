#include "outcome.h"

#include <algorithm>
#include <cstring>

#include "settings.h"

namespace cudajudge::detail {

Outcome& outcome() {
    static Outcome* instance = new Outcome;  // never destroyed: pool threads may outlive static destructors
    return *instance;
}

void Outcome::record_error(Verdict verdict, const char* kind, std::string message, long launch, uint64_t block) {
    std::lock_guard<std::mutex> lock(mutex_);
    const bool lower_block_of_same_launch = launch >= 0 && launch == error_launch_ && block < error_block_;
    if (verdict_ != Verdict::ok && !lower_block_of_same_launch) return;
    verdict_ = verdict;
    kind_ = kind;
    message_ = std::move(message);
    error_launch_ = launch;
    error_block_ = block;
}

long Outcome::add_launch(LaunchRecord record) {
    std::lock_guard<std::mutex> lock(mutex_);
    long index = static_cast<long>(launch_count_++);
    if (launches_.size() < kept_launches) launches_.push_back(std::move(record));
    return index;
}

void Outcome::set_launch_status(long index, int status) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (index >= 0 && static_cast<size_t>(index) < launches_.size()) launches_[static_cast<size_t>(index)].status = status;
}

size_t Outcome::append_printf(std::string_view text) {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t cap = settings().printf_cap;
    size_t room = printf_.size() < cap ? cap - printf_.size() : 0;
    size_t kept = std::min(room, text.size());
    printf_.append(text.data(), kept);
    printf_dropped_ += text.size() - kept;
    return kept;
}

void Outcome::drop_printf(uint64_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    printf_dropped_ += bytes;
}

size_t Outcome::printf_room() const {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t cap = settings().printf_cap;
    return printf_.size() < cap ? cap - printf_.size() : 0;
}

void Outcome::reset() {
    std::lock_guard<std::mutex> lock(mutex_);
    verdict_ = Verdict::ok;
    kind_.clear();
    message_.clear();
    error_launch_ = -1;
    error_block_ = no_block;
    launches_.clear();
    launch_count_ = 0;
    printf_.clear();
    printf_dropped_ = 0;
}

Verdict Outcome::verdict() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return verdict_;
}

const char* Outcome::error_kind() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return kind_.c_str();
}

const char* Outcome::error_message() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return message_.c_str();
}

long Outcome::error_launch() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_launch_;
}

uint64_t Outcome::launch_count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return launch_count_;
}

const LaunchRecord* Outcome::launch(uint64_t index) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return index < launches_.size() ? &launches_[index] : nullptr;
}

uint64_t Outcome::printf_size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return printf_.size();
}

uint64_t Outcome::printf_copy(char* out, uint64_t capacity) const {
    std::lock_guard<std::mutex> lock(mutex_);
    uint64_t n = std::min<uint64_t>(capacity, printf_.size());
    std::memcpy(out, printf_.data(), n);
    return n;
}

uint64_t Outcome::printf_dropped() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return printf_dropped_;
}

}  // namespace cudajudge::detail
