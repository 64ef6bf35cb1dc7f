"""MoE token permutation: the token indices sorted by expert, stably.

permuted lists every token index once: first the tokens routed to expert 0 in increasing order,
then those of expert 1, and so on - a stable argsort of expert_ids.
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


def reference(*, expert_ids, num_tokens, **_):
    # Expert ids are < 2^16, so as uint16 the stable sort is NumPy's radix sort: fast at 2^24.
    order = np.argsort(expert_ids[:num_tokens].astype(np.uint16), kind="stable")
    return {"permuted": order.astype(np.int32)}


def baseline(*, expert_ids, permuted, num_tokens, **_):
    import cupy

    permuted[...] = cupy.argsort(expert_ids, kind="stable").astype(cupy.int32)
