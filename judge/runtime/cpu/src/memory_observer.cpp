#include "memory_observer.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <unordered_map>
#include <vector>

#include "access_hints.h"
#include "block_run.h"
#include "diagnostics.h"
#include "grid_job.h"
#include "outcome.h"
#include "worker.h"

namespace cudajudge::detail {

bool observing = false;

namespace {

constexpr unsigned int shared_cell_shift = 2;   // cells of 4 bytes

// One access as the shadow keeps it. `clock` orders it against the barriers, warp syncs and
// fences of the launch; `pc` is its return address in the submission, for the source line.
struct Access {
    uint32_t clock;
    uint32_t block;
    const void* pc;
    uint16_t thread;
    uint8_t flags;
    uint8_t bytes;   // which bytes of the cell it touched (bit i: byte i); 0 for no access
};

// The accesses of one cell (a few bytes) in the current epoch (a block run for shared memory, a launch
// for global memory): the last write and up to two readers since it, from different threads. Accesses
// to different bytes of a cell never conflict; a write to other bytes than the last one's replaces it.
struct Cell {
    uint32_t epoch;
    Access write;
    Access read[2];
};

struct GlobalBuffer {
    uintptr_t start, end;              // the named bytes
    uintptr_t guard_start, guard_end;  // with the guards around them
    std::string name;
    size_t element;
    unsigned int cell_shift;           // log2 of a cell's bytes: the element size where it is below 4 bytes, else 4
    std::vector<Cell> cells;           // made at the first observed access
};

// The last two ranges a lookup found, the more recent first: kernels alternate between two arrays
// (a tile of A and one of B) more often than they keep to one.
struct RecentRanges {
    uintptr_t start[2] = {0, 0}, end[2] = {0, 0};

    bool hold(uintptr_t address, size_t size) const {
        return (address >= start[0] && address + size <= end[0]) || (address >= start[1] && address + size <= end[1]);
    }
    void add(uintptr_t from, uintptr_t to) {
        start[1] = start[0];
        end[1] = end[0];
        start[0] = from;
        end[0] = to;
    }
};

struct SyncEvent {
    uint32_t clock;
    unsigned int lanes;
};

// What an address of shared memory belongs to, for bounds and names.
struct SharedObject {
    uintptr_t start = 0, end = 0;
    const char* name = "";  // "tile", or "" for dynamic shared memory nobody named
    const char* type = "";  // "float[32][33]"
    size_t element = 1;
    int rank = 0;
    const size_t* extent = nullptr;
    bool dynamic = false;
};

std::string count_text(size_t count, const char* noun) { return std::to_string(count) + " " + noun + (count == 1 ? "" : "s"); }

AccessKind access_kind(unsigned int flags) {
    return flags & access_atomic ? AccessKind::atomic : flags & access_write ? AccessKind::store : AccessKind::load;
}

const char* access_word(unsigned int flags) { return flags & access_atomic ? "atomic" : flags & access_write ? "write" : "read"; }

// The access's instruction: the call to the hook ends just before its return address.
const void* instruction(const void* pc) { return pc ? static_cast<const char*>(pc) - 1 : nullptr; }
std::string hex(const void* pc) { return line_mark(instruction(pc)); }

class MemoryObserver {
public:
    void launch_begins(const GridJob& job) {
        job_ = &job;
        ++launch_epoch_;
        block_publish_.clear();
        race_reported_ = false;
        pending_.active = false;
        hints_launch_begins(job.kernel);
    }

    void launch_ends() {
        settle();
        job_ = nullptr;
    }

    void block_begins(BlockRun& block) {
        block_ = &block;
        block_linear_ = static_cast<uint32_t>(block.linear());
        ++block_epoch_;
        last_barrier_clock_ = ++clock_;
        block_published_ = 0;
        const size_t threads = block.thread_count();
        thread_publish_.assign(threads, 0);
        thread_acquire_.assign(threads, 0);
        warp_syncs_.assign((threads + 31) / 32, {});
        const Worker& worker = block.worker();
        window_start_ = reinterpret_cast<uintptr_t>(worker.shared_allocation.get());
        window_end_ = window_start_ + Worker::shared_window_bytes;
        if (shared_cells_.empty()) shared_cells_.resize(Worker::shared_window_bytes >> shared_cell_shift);
        objects_.clear();
        known_shared_ = RecentRanges{};
        hints_block_begins(block.linear());
    }

    void block_ends() {
        settle();
        if (block_) {
            if (block_published_) block_publish_[static_cast<uint32_t>(block_->linear())] = block_published_;
            hints_block_ends(block_->thread_count());
        }
        block_ = nullptr;
    }

    void barrier_released() {
        settle();
        last_barrier_clock_ = ++clock_;
        for (auto& events : warp_syncs_) events.clear();
    }

    void warp_synced(int warp, unsigned int lanes) {
        settle();
        if (static_cast<size_t>(warp) < warp_syncs_.size()) warp_syncs_[static_cast<size_t>(warp)].push_back({++clock_, lanes});
    }

    void fenced() {
        if (!block_) return;
        const uint32_t now = ++clock_;
        const size_t thread = static_cast<size_t>(block_->running_thread());
        if (thread < thread_publish_.size()) thread_publish_[thread] = thread_acquire_[thread] = now;
        block_published_ = now;
    }

    void access(uintptr_t address, size_t size, unsigned int flags, const void* pc) {
        settle();
        if (!block_ || size == 0) return;
        const int thread = block_->running_thread();
        if (thread < 0) return;
        if (address >= window_start_ && address < window_end_) {
            if (hints_sampling) hints_access(thread, pc, Space::shared, access_kind(flags), address, size);
            shared_access(address, size, flags, pc, thread);
            return;
        }
        GlobalBuffer* buffer = global_at(address);
        if (!buffer) return;
        if (hints_sampling) hints_access(thread, pc, Space::global, access_kind(flags), address, size);
        global_access(*buffer, address, size, flags | (flags & access_volatile ? access_atomic : 0u), pc, thread);
    }

    void settle() {
        if (!pending_.active) return;
        pending_.active = false;
        if (std::memcmp(reinterpret_cast<const void*>(pending_.address), pending_.bytes, pending_.size) != 0) report(pending_.race);
    }

    // ---- global buffers ----

    void name_global(uintptr_t base, size_t bytes, size_t before, size_t after, std::string name, size_t element) {
        const unsigned int cell_shift = element == 1 ? 0 : element == 2 ? 1 : 2;
        GlobalBuffer buffer{base, base + bytes, base - before, base + bytes + after, std::move(name), element, cell_shift, {}};
        globals_[base] = std::move(buffer);
        forget_lookups();
    }

    void forget_global(uintptr_t base) {
        globals_.erase(base);
        forget_lookups();
    }

    std::optional<std::string> named_overrun(uintptr_t address, size_t bytes) const {
        auto it = globals_.upper_bound(address);
        if (it == globals_.begin()) return std::nullopt;
        const GlobalBuffer& buffer = (--it)->second;
        if (address < buffer.start || address >= buffer.end) return std::nullopt;
        if (bytes <= buffer.end - address) return std::string();
        return std::to_string(address + bytes - buffer.end) + " bytes past the end of `" + buffer.name + "` (" +
               std::to_string(buffer.end - buffer.start) + " bytes)";
    }

    std::optional<std::string> named_element(uintptr_t address) const {   // on a fault: a scan of the few buffers will do
        for (const auto& [base, buffer] : globals_)
            if (address >= buffer.guard_start && address < buffer.guard_end) return global_element(buffer, address);
        return std::nullopt;
    }

    BlockRun* block() const { return block_; }

private:
    struct Race {
        Access earlier, later;
        bool write_write;
        bool shared;
        std::string where;      // "`s[17]`"
    };

    struct Pending {
        bool active = false;
        uintptr_t address = 0;
        size_t size = 0;
        unsigned char bytes[16] = {};
        Race race;
    };

    // ---- shared memory ----

    // The block's shared variables, remade when a thread declared one more or named dynamic shared memory.
    const std::vector<SharedObject>& shared_objects() {
        const Worker& worker = block_->worker();
        const auto& slots = block_->static_shared();
        if (objects_.size() == slots.size() + 1 && objects_.back().name == (worker.dynamic_name ? worker.dynamic_name : "")) return objects_;
        objects_.clear();
        for (const auto& slot : slots) {
            SharedObject o;
            o.start = reinterpret_cast<uintptr_t>(slot.address);
            o.end = o.start + slot.shape->bytes;
            o.name = slot.name;
            o.type = slot.type;
            o.element = slot.shape->element;
            o.rank = slot.shape->rank;
            o.extent = slot.shape->extent;
            objects_.push_back(o);
        }
        SharedObject dynamic;
        dynamic.start = reinterpret_cast<uintptr_t>(worker.dynamic_shared());
        dynamic.end = dynamic.start + block_->job().shape.shared_bytes;
        dynamic.name = worker.dynamic_name ? worker.dynamic_name : "";
        dynamic.element = worker.dynamic_element ? worker.dynamic_element : 1;
        dynamic.dynamic = true;
        objects_.push_back(dynamic);
        return objects_;
    }

    static std::string element_name(const SharedObject& o, uintptr_t address) {
        const size_t offset = address - o.start;
        if (!*o.name) return "byte " + std::to_string(offset) + " of dynamic shared memory";
        size_t index = offset / o.element;
        if (!o.dynamic && o.rank == 0) return "`" + std::string(o.name) + "`";
        std::string text = "`" + std::string(o.name);
        if (o.rank >= 2) {
            std::string subscripts;
            for (int d = o.rank - 1; d >= 1; --d) {
                subscripts = "[" + std::to_string(index % o.extent[d]) + "]" + subscripts;
                index /= o.extent[d];
            }
            return text + "[" + std::to_string(index) + "]" + subscripts + "`";
        }
        return text + "[" + std::to_string(index) + "]`";
    }

    static std::string object_text(const SharedObject& o) {
        const size_t bytes = o.end - o.start;
        if (o.dynamic) {
            std::string text = "dynamic shared memory of " + std::to_string(bytes) + " bytes";
            return !*o.name ? text : "`" + std::string(o.name) + "`, " + text;
        }
        return "`" + std::string(o.name) + "` (" + o.type + ", " + std::to_string(bytes) + " bytes)";
    }

    // The shared variable `address` lies in, or null.
    const SharedObject* shared_object_at(uintptr_t address) {
        const SharedObject* inside = nullptr;
        for (const auto& o : shared_objects())
            if (address >= o.start && address < o.end) inside = &o;
        return inside;
    }

    void shared_access(uintptr_t address, size_t size, unsigned int flags, const void* pc, int thread) {
        // A variable stays where the block laid it out: most accesses fall in one the last lookups found.
        if (!known_shared_.hold(address, size)) {
            const SharedObject* inside = shared_object_at(address);
            if (!inside || address + size > inside->end) shared_out_of_bounds(shared_objects(), inside, address, size, flags, pc, thread);
            known_shared_.add(inside->start, inside->end);
        }
        if (race_reported_) return;
        check_cells(shared_cells_.data(), shared_cells_.size(), shared_cell_shift, block_epoch_, address - window_start_, address, size,
                    flags, pc, thread, false, [&] { return element_name(*shared_object_at(address), address); }, [] {});
    }

    [[noreturn]] void shared_out_of_bounds(const std::vector<SharedObject>& objects, const SharedObject* inside, uintptr_t address,
                                           size_t size, unsigned int flags, const void* pc, int thread) {
        // The variable the access was most likely meant for: the one it starts in, else the nearest.
        const SharedObject* near = inside;
        uintptr_t best = UINTPTR_MAX;
        for (const auto& o : objects) {
            const uintptr_t distance = address >= o.end ? address - o.end : o.start - address;
            if (!inside && o.end > o.start && distance < best) {
                best = distance;
                near = &o;
            }
        }
        std::string what;
        if (!near) {
            what = "no shared variable is declared there";
        } else if (address >= near->start) {
            const size_t index = (address - near->start) / near->element;
            const size_t elements = (near->end - near->start) / near->element;
            what = (!*near->name ? "byte " + std::to_string(address - near->start) : "`" + std::string(near->name) + "[" + std::to_string(index) + "]`") +
                   " is past the end of " + object_text(*near) +
                   (!*near->name ? "" : ", which has " + count_text(elements, "element"));
        } else {
            const size_t before = near->start - address;
            what = count_text(before, "byte") + " before the start of " + object_text(*near) +
                   (near->element > 1 && before % near->element == 0 ? " (index -" + std::to_string(before / near->element) + ")" : "");
        }
        block_->fail(Verdict::runtime_error, "shared_out_of_bounds",
                     std::string("out-of-bounds ") + access_word(flags) + " of " + std::to_string(size) + " bytes of shared memory in " + block_->block_text() + " " +
                         block_->thread_text(thread) + hex(pc) + ": " + what,
                     cudaErrorIllegalAddress);
    }

    // ---- global memory ----

    // Most instrumented accesses are to no buffer (the kernel's arguments, locals whose address was
    // taken) or to one of the last two found: those and the last gaps between buffers answer most lookups.
    GlobalBuffer* global_at(uintptr_t address) {
        for (GlobalBuffer* recent : recent_globals_)
            if (recent && address >= recent->guard_start && address < recent->guard_end) return recent;
        for (const auto& [from, to] : gaps_)
            if (address >= from && address < to) return nullptr;
        uintptr_t gap_from = 0, gap_to = UINTPTR_MAX;
        for (auto& [key, buffer] : globals_) {
            if (address >= buffer.guard_start && address < buffer.guard_end) {
                recent_globals_ = {&buffer, recent_globals_[0]};
                return &buffer;
            }
            if (buffer.guard_end <= address) gap_from = std::max(gap_from, buffer.guard_end);
            if (buffer.guard_start > address) gap_to = std::min(gap_to, buffer.guard_start);
        }
        gaps_[next_gap_++ % gaps_.size()] = {gap_from, gap_to};
        return nullptr;
    }

    std::string global_element(const GlobalBuffer& buffer, uintptr_t address) const {
        const long long offset = static_cast<long long>(address) - static_cast<long long>(buffer.start);
        if (buffer.element) return "`" + buffer.name + "[" + std::to_string(offset / static_cast<long long>(buffer.element)) + "]`";
        return "byte " + std::to_string(offset) + " of " + buffer.name;
    }

    void global_access(GlobalBuffer& buffer, uintptr_t address, size_t size, unsigned int flags, const void* pc, int thread) {
        if (address < buffer.start || address + size > buffer.end) {
            const bool before = address < buffer.start;
            const size_t count = buffer.element ? (buffer.end - buffer.start) / buffer.element : buffer.end - buffer.start;
            block_->fail(Verdict::runtime_error, "out_of_bounds",
                         std::string("out-of-bounds ") + access_word(flags) + " of " + std::to_string(size) + " bytes in " + block_->block_text() + " " +
                             block_->thread_text(thread) + hex(pc) + ": " + global_element(buffer, address) + (before ? " is before the start of " : " is past the end of ") +
                             buffer.name + ", which has " + count_text(count, buffer.element ? "element" : "byte"),
                         cudaErrorIllegalAddress);
        }
        if (race_reported_) return;
        const size_t unit = size_t{1} << buffer.cell_shift;
        if (buffer.cells.empty()) buffer.cells.resize((buffer.end - buffer.start + unit - 1) >> buffer.cell_shift);
        check_cells(buffer.cells.data(), buffer.cells.size(), buffer.cell_shift, launch_epoch_, address - buffer.start, address, size,
                    flags, pc, thread, true, [&] { return global_element(buffer, address); },
                    [&] { hints_traffic(unit); });   // the first touch in this launch
    }

    // ---- ordering ----

    // Whether `earlier` happens before an access of `thread` in the running block now. Most accesses
    // follow one of the same thread or one before the block's last barrier: that is tested inline.
    bool ordered(const Access& earlier, int thread, bool global) const {
        if (earlier.block == block_linear_ && (earlier.thread == thread || earlier.clock < last_barrier_clock_)) return true;
        return ordered_by_sync(earlier, thread, global);
    }

    // The rest of `ordered`: a warp sync both lanes took part in, or a fence and an atomic.
    __attribute__((noinline)) bool ordered_by_sync(const Access& earlier, int thread, bool global) const {
        const uint32_t block = block_linear_;
        if (earlier.block == block) {
            if (earlier.thread / 32 == thread / 32) {
                const unsigned int both = 1u << (earlier.thread % 32) | 1u << (thread % 32);
                const auto& events = warp_syncs_[static_cast<size_t>(thread / 32)];
                for (auto e = events.rbegin(); e != events.rend() && e->clock > earlier.clock; ++e)
                    if ((e->lanes & both) == both) return true;
            }
        }
        if (!global) return false;
        // A fence or atomic after the earlier access, and one in this thread after that.
        uint32_t published = 0;
        if (earlier.block == block) {
            published = thread_publish_[earlier.thread];
        } else {
            auto it = block_publish_.find(earlier.block);
            if (it != block_publish_.end()) published = it->second;
        }
        return published > earlier.clock && thread_acquire_[static_cast<size_t>(thread)] > published;
    }

    // Checks the cells (of 2^shift bytes, `count` of them) that an access of `size` bytes at `offset`
    // from the first one touches; true when it found a race. `first_touch` is called for each cell the
    // epoch had not touched yet.
    template <class Name, class FirstTouch>
    bool check_cells(Cell* cells, size_t count, unsigned int shift, uint32_t epoch, uintptr_t offset, uintptr_t address, size_t size,
                     unsigned int flags, const void* pc, int thread, bool global, Name name, FirstTouch first_touch) {
        if (count == 0) return false;
        const uintptr_t last = std::min<uintptr_t>((offset + size - 1) >> shift, count - 1);
        for (uintptr_t cell = offset >> shift; cell <= last; ++cell) {
            // The bytes of the cell the access touches (bit i: byte i).
            const uintptr_t cell_start = cell << shift;
            const uintptr_t from = std::max(cell_start, offset), to = std::min(cell_start + (uintptr_t{1} << shift), offset + size);
            const uint8_t bytes = static_cast<uint8_t>(((1u << (to - from)) - 1) << (from - cell_start));
            if (cells[cell].epoch != epoch) first_touch();
            if (check(cells[cell], epoch, flags, pc, thread, global, address, size, bytes, name)) return true;
        }
        return false;
    }

    // Records the access in `cell`; returns true when it found a race (reported, or pending).
    template <class Name>
    bool check(Cell& cell, uint32_t epoch, unsigned int flags, const void* pc, int thread, bool global, uintptr_t address, size_t size,
               uint8_t bytes, Name name) {
        if (cell.epoch != epoch) cell = Cell{epoch, {}, {{}, {}}};
        const bool write = flags & (access_write | access_atomic);
        const bool atomic = flags & access_atomic;
        const Access now{clock_, block_linear_, pc, static_cast<uint16_t>(thread), static_cast<uint8_t>(flags), bytes};
        auto conflicts = [&](const Access& earlier) {
            return (earlier.bytes & bytes) && !((earlier.flags & access_atomic) && atomic) && !ordered(earlier, thread, global);
        };
        const Access* against = nullptr;
        if (conflicts(cell.write)) against = &cell.write;
        if (write && !against) {
            for (const Access& r : cell.read)
                if (!against && conflicts(r)) against = &r;
        }
        if (against) {
            Race race{*against, now, write && (against->flags & (access_write | access_atomic)), !global, name()};
            if (race.write_write && !atomic && !(against->flags & access_atomic) && size <= sizeof pending_.bytes) {
                // Two plain writes of the same value are harmless: decided once this store is done.
                pending_.active = true;
                pending_.address = address;
                pending_.size = size;
                std::memcpy(pending_.bytes, reinterpret_cast<const void*>(address), size);
                pending_.race = race;
            } else {
                report(race);
            }
            cell.write = now;
            return true;
        }
        if (write) {
            cell.write = now;
            cell.read[0] = cell.read[1] = Access{};
        } else if (!cell.read[0].bytes || (cell.read[0].block == now.block && cell.read[0].thread == now.thread)) {
            cell.read[0] = now;
        } else {
            cell.read[1] = now;
        }
        return false;
    }

    std::string who(const Access& a, bool with_block) const {
        const uint3 t = block_->thread_index(a.thread);
        std::string text = "thread " + coordinates(t);
        if (with_block) {
            text += " of block " + coordinates(block_coordinates(block_->job().shape.grid, a.block));
        }
        return text;
    }

    static std::string verb(const Access& a) {
        if (a.flags & access_atomic) return a.flags & access_volatile ? "accessed it through a volatile pointer" : "updated it atomically";
        return a.flags & access_write ? "wrote" : "read";
    }

    void report(const Race& race) {
        if (race_reported_) return;
        race_reported_ = true;
        const bool blocks = race.earlier.block != race.later.block;
        std::string text = "data race on " + race.where + " (" + (race.shared ? "shared" : "global") + ") in " +
                           (blocks ? job_->kernel : block_->block_text()) + ": " + who(race.earlier, blocks) + " " + verb(race.earlier) +
                           hex(race.earlier.pc) + ", " + who(race.later, blocks) + " " + verb(race.later) +
                           (race.write_write ? " a different value" : "") + hex(race.later.pc);
        if (blocks) {
            text += ", with nothing ordering them: threads of different blocks are ordered only by a __threadfence() or atomic "
                    "in the first and an atomic in the second, or by separate launches";
        } else {
            text += ", no barrier between";
        }
        const std::string lockstep = !blocks && race.earlier.thread / 32 == race.later.thread / 32
            ? ". Both are lanes of warp " + std::to_string(race.later.thread / 32) +
                  ": since Volta the lanes of a warp do not run in lockstep, so warp-synchronous code needs __syncwarp() "
                  "between the write and the access (volatile does not order them)"
            : "";
        // A lost update: one thread's `x++` done, the next one's read of x, on one line.
        const bool update_then_read = (race.earlier.flags & access_write) && !(race.later.flags & (access_write | access_atomic));
        const std::string update = update_then_read
            ? ". Threads updating one location with a plain read-modify-write (`x++`, `x += v`) lose updates: use an atomic (atomicAdd)"
            : lockstep;
        text += line_choice(instruction(race.earlier.pc), instruction(race.later.pc), update, lockstep);
        outcome().record_error(Verdict::wrong_answer, "data_race", text + " (" + job_->launch_text() + ")", job_->launch_index,
                               race.later.block);
    }

    const GridJob* job_ = nullptr;
    BlockRun* block_ = nullptr;
    uint32_t block_linear_ = 0;   // block_'s index in the grid
    uint32_t launch_epoch_ = 0, block_epoch_ = 0, clock_ = 0, last_barrier_clock_ = 0;
    std::vector<uint32_t> thread_publish_, thread_acquire_;
    std::vector<std::vector<SyncEvent>> warp_syncs_;
    std::unordered_map<uint32_t, uint32_t> block_publish_;   // of the launch's finished blocks
    uint32_t block_published_ = 0;                            // the running block's last fence or atomic
    uintptr_t window_start_ = 0, window_end_ = 0;
    std::vector<Cell> shared_cells_;
    std::vector<SharedObject> objects_;
    RecentRanges known_shared_;   // the bytes of shared variables the last lookups found
    std::map<uintptr_t, GlobalBuffer> globals_;
    std::array<GlobalBuffer*, 2> recent_globals_{};
    std::array<std::pair<uintptr_t, uintptr_t>, 4> gaps_{};   // [from, to) known to hold no buffer
    size_t next_gap_ = 0;

    void forget_lookups() {
        recent_globals_ = {};
        gaps_.fill({0, 0});
    }
    bool race_reported_ = false;
    Pending pending_;
};

// Made when the library is loaded (before any launch), never destroyed, like the outcome.
MemoryObserver& the_observer = *new MemoryObserver;

MemoryObserver& observer() { return the_observer; }

}  // namespace

// An observed launch runs its blocks on the launching OS thread alone, so the observer's block is the
// running one (and none between blocks): no thread-local lookup per access.
void observe(const void* address, size_t size, unsigned flags, const void* pc) {
    if (observer().block()) observer().access(reinterpret_cast<uintptr_t>(address), size, flags, pc);
}

void observe_fence() {
    if (observer().block()) observer().fenced();
}

void name_global(const void* base, size_t bytes, size_t before, size_t after, std::string name, size_t element) {
    observer().name_global(reinterpret_cast<uintptr_t>(base), bytes, before, after, std::move(name), element);
}

void forget_global(const void* base) { observer().forget_global(reinterpret_cast<uintptr_t>(base)); }

std::optional<std::string> named_overrun(const void* ptr, size_t bytes) {
    return observer().named_overrun(reinterpret_cast<uintptr_t>(ptr), bytes);
}

std::optional<std::string> named_element(const void* address) { return observer().named_element(reinterpret_cast<uintptr_t>(address)); }

void observer_launch_begins(const GridJob& job) { observer().launch_begins(job); }
void observer_launch_ends() { observer().launch_ends(); }
void observer_block_begins(BlockRun& block) { observer().block_begins(block); }
void observer_block_ends() { observer().block_ends(); }
void observer_barrier_released() { observer().barrier_released(); }
void observer_warp_synced(int warp, unsigned int lanes) { observer().warp_synced(warp, lanes); }
void observer_settle() { observer().settle(); }

}  // namespace cudajudge::detail
