// Performance hints from observed accesses: for each instruction of device code, how its warp-wide
// requests use memory (32-byte sectors of global memory touched against the fewest possible,
// shared-memory bank conflicts, lanes active), and the bytes of global memory each kernel touches.
//
// A warp's request is the k-th execution of one instruction by each of its lanes. Lanes run one
// after another on the CPU, so each lane's accesses are kept until the block ends and then lined up.
// Only the first blocks of each launch are sampled, and in them the first warps to execute each
// instruction: a kernel's pattern repeats across its blocks and warps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cudajudge::detail {

enum class Space : unsigned char { global = 0, shared = 1 };
enum class AccessKind : unsigned char { load = 0, store = 1, atomic = 2 };

// Whether the running block is sampled: accesses are worth passing to hints_access.
extern bool hints_sampling;

void hints_launch_begins(const std::string& kernel);
void hints_block_begins(uint64_t block);
// One access of a sampled block; called only while hints_sampling.
void hints_access(int thread, const void* pc, Space space, AccessKind kind, uintptr_t address, size_t size);
// Bytes of global memory the launch touched for the first time.
void hints_traffic(size_t bytes);
void hints_block_ends(unsigned int threads);
void hints_reset();
// The rows gathered since the last reset, one per line, tab-separated:
//   access <kernel> <pc offset, hex> <space> <kind> <requests> <lanes active> <lanes present>
//          <sectors> <fewest sectors> <bank ways> <worst bank ways>
//          (sums over the requests; a request's bank ways: the most lanes that wait on one bank in one phase)
//   traffic <kernel> <launches> <bytes of the largest launch>
std::string hints_text();

}  // namespace cudajudge::detail
