"""The editor's CUDA completion list (web/src/cuda-completions.json) is what web/scripts/cuda_completions.py
makes from the judge's CPU runtime headers and its runtime-call allow-list: one source, regenerated after
either changes."""
from __future__ import annotations

import importlib.util
import json

from web_helpers import REPO

from judge.source.runtime_calls import SUPPORTED_RUNTIME_CALLS

LIST = REPO / "web" / "src" / "cuda-completions.json"


def _script():
    spec = importlib.util.spec_from_file_location("cuda_completions", REPO / "web" / "scripts" / "cuda_completions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_list_is_what_the_script_makes():
    assert LIST.read_text() == _script().render(), "stale: run python web/scripts/cuda_completions.py"


def test_the_list_has_cuda_names_and_no_runtime_internals():
    entries = {e["label"]: e for e in json.loads(LIST.read_text())}
    expected = {"builtin": ["threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"],
                "qualifier": ["__global__", "__device__", "__host__", "__shared__", "__constant__", "__restrict__",
                              "__launch_bounds__", "__forceinline__"],
                "sync": ["__syncthreads", "__syncwarp", "__shfl_sync", "__shfl_down_sync", "__shfl_up_sync",
                         "__shfl_xor_sync", "__ballot_sync", "__any_sync", "__reduce_add_sync"],
                "atomic": ["atomicAdd", "atomicMax", "atomicMin", "atomicCAS", "atomicExch", "atomicAdd_block"],
                "intrinsic": ["__ldg", "__fmaf_rn", "__popc", "__float2int_rn", "__threadfence", "min", "rsqrtf"],
                "runtime": [*SUPPORTED_RUNTIME_CALLS, "cudaMemcpyDeviceToHost", "cudaSuccess"]}
    for group, names in expected.items():
        for name in names:
            assert entries.get(name, {}).get("group") == group, f"{name} should complete as {group}"
    internal = {"bit_cast", "saturating_cast", "block_barrier", "warp_exchange", "kernel_return", "name", "T"}
    assert not internal & entries.keys()
    assert len(entries) == len(json.loads(LIST.read_text())), "a name is listed twice"
