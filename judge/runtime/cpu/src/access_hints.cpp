#include "access_hints.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "diagnostics.h"

namespace cudajudge::detail {

bool hints_sampling = false;

namespace {

constexpr uint64_t sampled_blocks = 4;        // of each launch
constexpr int sampled_warps = 8;              // per instruction in a sampled block: the first to execute it
constexpr size_t requests_per_site = 64;      // per warp and instruction, in a sampled block
constexpr size_t kept_rows = 400;

struct LaneAccess {
    uintptr_t address;
    uint32_t size;
};

// One instruction's executions in one warp of the sampled block.
struct Site {
    bool sampled;   // false past the instruction's first sampled_warps warps
    Space space;
    AccessKind kind;
    uint16_t executed[32] = {};
    std::vector<LaneAccess> lanes;   // requests_per_site x 32, address 0 where a lane did not take part
};

struct Totals {
    uint64_t requests = 0, lanes_active = 0, lanes_present = 0, sectors = 0, fewest_sectors = 0, ways = 0;
    unsigned int worst_ways = 0;
};

struct Traffic {
    uint64_t launches = 0, largest = 0;
};


class Hints {
public:
    void launch_begins(const std::string& kernel) {
        kernel_ = kernel;
        launch_bytes_ = 0;
        Traffic& traffic = traffic_[kernel_];
        ++traffic.launches;
        current_traffic_ = &traffic;
    }

    void block_begins(uint64_t block) {
        hints_sampling = block < sampled_blocks;
        forget_sites();
    }

    void access(int thread, const void* pc, Space space, AccessKind kind, uintptr_t address, size_t size) {
        const int warp = thread / 32, lane = thread % 32;
        Site& site = site_of(pc, warp, space, kind);
        if (!site.sampled) return;
        const uint16_t k = site.executed[lane];
        if (k >= requests_per_site) return;
        site.executed[lane] = static_cast<uint16_t>(k + 1);
        if (site.lanes.size() < (size_t{k} + 1) * 32) site.lanes.resize((size_t{k} + 1) * 32, LaneAccess{0, 0});
        site.lanes[size_t{k} * 32 + static_cast<size_t>(lane)] = {address, static_cast<uint32_t>(size)};
    }

    void traffic(size_t bytes) {
        launch_bytes_ += bytes;
        if (current_traffic_) current_traffic_->largest = std::max<uint64_t>(current_traffic_->largest, launch_bytes_);
    }

    void block_ends(unsigned int threads) {
        if (!hints_sampling) return;
        for (auto& [key, site] : sites_) {
            if (!site.sampled) continue;
            const int warp = key.second;
            const unsigned int present = std::min(32u, threads - static_cast<unsigned int>(warp) * 32);
            const size_t offset = offset_of(key.first);
            if (offset == outside) continue;
            Totals& totals = totals_[{kernel_, offset, site.space, site.kind}];
            const uint16_t most = *std::max_element(site.executed, site.executed + 32);
            for (size_t k = 0; k < most; ++k) add_request(totals, site, &site.lanes[k * 32], present);
        }
        forget_sites();
    }

    void reset() {
        totals_.clear();
        traffic_.clear();
        current_traffic_ = nullptr;
        forget_sites();
    }

    std::string text() const {
        std::string out;
        char row[512];
        size_t rows = 0;
        for (const auto& [key, t] : totals_) {
            if (++rows > kept_rows) break;
            const auto& [kernel, offset, space, kind] = key;
            std::snprintf(row, sizeof row, "\t%zx\t%s\t%s\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%u\n", static_cast<size_t>(offset),
                          space == Space::global ? "global" : "shared",
                          kind == AccessKind::load ? "load" : kind == AccessKind::store ? "store" : "atomic",
                          static_cast<unsigned long long>(t.requests), static_cast<unsigned long long>(t.lanes_active),
                          static_cast<unsigned long long>(t.lanes_present), static_cast<unsigned long long>(t.sectors),
                          static_cast<unsigned long long>(t.fewest_sectors), static_cast<unsigned long long>(t.ways), t.worst_ways);
            out += "access\t" + kernel + row;
        }
        for (const auto& [kernel, t] : traffic_) {
            std::snprintf(row, sizeof row, "\t%llu\t%llu\n", static_cast<unsigned long long>(t.launches), static_cast<unsigned long long>(t.largest));
            out += "traffic\t" + kernel + row;
        }
        return out;
    }

private:
    static constexpr size_t outside = SIZE_MAX;   // an offset_of for code outside the submission's library

    struct SiteKey {
        size_t operator()(const std::pair<const void*, int>& k) const {
            return std::hash<const void*>()(k.first) ^ (static_cast<size_t>(k.second) << 52);
        }
    };

    // A sampled block makes every access look up its (instruction, warp): the last ones found are
    // kept in a small direct-mapped table in front of the map, whose elements never move.
    struct CachedSite {
        const void* pc = nullptr;
        int warp = -1;
        Site* site = nullptr;
    };

    Site& site_of(const void* pc, int warp, Space space, AccessKind kind) {
        const uintptr_t code = reinterpret_cast<uintptr_t>(pc);
        CachedSite& cached = cached_[static_cast<size_t>(warp % 32) * 16 + ((code ^ code >> 4) % 16)];
        if (cached.pc == pc && cached.warp == warp) return *cached.site;
        auto [it, fresh] = sites_.try_emplace({pc, warp});
        if (fresh) {
            int& warps = warps_at_[pc];   // a block's warps mostly repeat one pattern: a few of them show it
            it->second.sampled = warps < sampled_warps;
            warps += it->second.sampled;
            it->second.space = space;
            it->second.kind = kind;
        }
        cached = {pc, warp, &it->second};
        return it->second;
    }

    void forget_sites() {
        if (sites_.empty()) return;   // nothing was sampled (the table holds only sites of the map)
        sites_.clear();
        warps_at_.clear();
        cached_.fill({});
    }

    // The offset in the library of the call's own instruction, which ends just before its return address.
    size_t offset_of(const void* pc) {
        auto [it, fresh] = offsets_.try_emplace(pc, outside);
        size_t offset;
        if (fresh && library_offset(static_cast<const char*>(pc) - 1, &offset)) it->second = offset;
        return it->second;
    }

    static void add_request(Totals& totals, const Site& site, const LaneAccess* lanes, unsigned int present) {
        unsigned int active = 0;
        for (int l = 0; l < 32; ++l) active += lanes[l].size != 0;
        if (!active) return;
        ++totals.requests;
        totals.lanes_active += active;
        totals.lanes_present += present;
        if (site.space == Space::global) {
            uintptr_t sectors[64];
            int n = 0;
            std::vector<std::pair<uintptr_t, uint32_t>> distinct;
            for (int l = 0; l < 32; ++l) {
                if (!lanes[l].size) continue;
                for (uintptr_t s = lanes[l].address / 32; s <= (lanes[l].address + lanes[l].size - 1) / 32 && n < 64; ++s) sectors[n++] = s;
                distinct.emplace_back(lanes[l].address, lanes[l].size);
            }
            std::sort(sectors, sectors + n);
            std::sort(distinct.begin(), distinct.end());
            uint64_t bytes = 0;
            for (size_t i = 0; i < distinct.size(); ++i)
                if (i == 0 || distinct[i] != distinct[i - 1]) bytes += distinct[i].second;
            totals.sectors += static_cast<uint64_t>(std::unique(sectors, sectors + n) - sectors);
            totals.fewest_sectors += (bytes + 31) / 32;
            return;
        }
        // Shared memory serves a warp in phases (all 32 lanes for 4-byte words, 16 for 8 bytes, 8 for 16);
        // within one, lanes reading distinct words of one bank wait for each other.
        uint32_t widest = 0;
        for (int l = 0; l < 32; ++l) widest = std::max(widest, lanes[l].size);
        const int per_phase = widest <= 4 ? 32 : widest <= 8 ? 16 : 8;
        unsigned int worst = 1;
        for (int first = 0; first < 32; first += per_phase) {
            uintptr_t words[32][32];
            int count[32] = {};
            unsigned int phase_ways = 0;
            for (int l = first; l < first + per_phase; ++l) {
                if (!lanes[l].size) continue;
                for (uintptr_t w = lanes[l].address / 4; w <= (lanes[l].address + lanes[l].size - 1) / 4; ++w) {
                    const int bank = static_cast<int>(w % 32);
                    bool seen = false;
                    for (int i = 0; i < count[bank] && !seen; ++i) seen = words[bank][i] == w;
                    if (!seen && count[bank] < 32) words[bank][count[bank]++] = w;
                }
            }
            for (int b = 0; b < 32; ++b) phase_ways = std::max<unsigned int>(phase_ways, static_cast<unsigned int>(count[b]));
            worst = std::max(worst, phase_ways);
        }
        totals.ways += worst;
        totals.worst_ways = std::max(totals.worst_ways, worst);
    }

    std::string kernel_;
    uint64_t launch_bytes_ = 0;
    Traffic* current_traffic_ = nullptr;
    std::unordered_map<std::pair<const void*, int>, Site, SiteKey> sites_;
    std::unordered_map<const void*, int> warps_at_;   // warps sampled per instruction in this block
    std::array<CachedSite, 32 * 16> cached_{};   // 16 per warp (a block has at most 32)
    std::unordered_map<const void*, size_t> offsets_;   // the library's code stays where it is loaded
    std::map<std::tuple<std::string, uintptr_t, Space, AccessKind>, Totals> totals_;
    std::map<std::string, Traffic> traffic_;
};

Hints& hints() {
    static Hints* instance = new Hints;
    return *instance;
}

}  // namespace

void hints_launch_begins(const std::string& kernel) { hints().launch_begins(kernel); }
void hints_block_begins(uint64_t block) { hints().block_begins(block); }
void hints_access(int thread, const void* pc, Space space, AccessKind kind, uintptr_t address, size_t size) {
    hints().access(thread, pc, space, kind, address, size);
}
void hints_traffic(size_t bytes) { hints().traffic(bytes); }
void hints_block_ends(unsigned int threads) { hints().block_ends(threads); }
void hints_reset() { hints().reset(); }
std::string hints_text() { return hints().text(); }

}  // namespace cudajudge::detail
