"""MoE expert counts and block-aligned offsets.

counts[e]  = number of i with expert_ids[i] == e;
offsets[e] = sum over j < e of counts[j] rounded UP to a multiple of block_size;
offsets[num_experts] = the total padded size.
"""
import numpy as np


def routed_experts(rng, distribution, *, num_tokens, num_experts, **_):
    n, experts = int(num_tokens), int(num_experts)
    if distribution == "uniform":
        return rng.integers(0, experts, n, dtype=np.int32)
    if distribution == "single-hotspot":               # ~90% of the tokens go to one expert
        ids = rng.integers(0, experts, n, dtype=np.int32)
        ids[rng.random(n) < 0.9] = rng.integers(0, experts)
        return ids
    if distribution == "zipf":                          # P(rank r) ~ 1 / (r + 1)^1.2, random ranks
        weights = 1.0 / np.arange(1, experts + 1, dtype=np.float64) ** 1.2
        ranked = rng.permutation(experts).astype(np.int32)
        return ranked[rng.choice(experts, size=n, p=weights / weights.sum())]
    if distribution == "all-equal":                     # every token to one expert
        return np.full(n, rng.integers(0, experts), dtype=np.int32)
    if distribution == "few-unique":                    # at most 4 experts get tokens
        chosen = rng.choice(experts, size=min(experts, 4), replace=False).astype(np.int32)
        return chosen[rng.integers(0, chosen.size, n)]
    raise ValueError(f"routed_experts: unknown distribution {distribution!r}")


def reference(*, expert_ids, num_tokens, num_experts, block_size, **_):
    counts = np.bincount(expert_ids[:num_tokens], minlength=num_experts).astype(np.int64)
    padded = (counts + block_size - 1) // block_size * block_size
    offsets = np.zeros(num_experts + 1, np.int64)
    np.cumsum(padded, out=offsets[1:])
    return {"counts": counts.astype(np.int32), "offsets": offsets.astype(np.int32)}


def baseline(*, expert_ids, counts, offsets, num_tokens, num_experts, block_size, **_):
    import cupy

    counts[...] = cupy.bincount(expert_ids, minlength=num_experts)
    padded = (counts + block_size - 1) // block_size * block_size
    offsets[0] = 0
    cupy.cumsum(padded, out=offsets[1:])
