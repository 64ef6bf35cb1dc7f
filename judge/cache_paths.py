"""Where the judge keeps its caches on this machine: the one place that reads their locations from
the environment.

    cache_root()       GPU builds (judge.compilation.cache) and the shim's runtime object:
                       $CUDAJUDGE_CACHE_DIR, else ~/.cache/cudajudge/compilations
    kernel_cache_root() the accounts' CuPy kernel caches (sandbox.kernel_cache): cache_root()/cupy-kernels
    standby_root()     one folder per standby host (sandbox.standby): cache_root()/standby
    cpu_build_root()   the CPU runtime (judge.compilation.cpu_runtime) and CPU builds (cpu_build):
                       $CUDAJUDGE_CACHE_DIR/cpu, else ~/.cache/cudajudge/cpu
    pch_root()         NVRTC's precompiled headers (judge.compilation.pch):
                       $CUDAJUDGE_PCH_DIR, else ~/.cache/cudajudge/pch

keep_json() writes a small cache file (a build's line tables, a kept baseline) whole.
"""
from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

CACHE_DIR_ENV = "CUDAJUDGE_CACHE_DIR"
PCH_DIR_ENV = "CUDAJUDGE_PCH_DIR"


def _configured(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value) if value else None


def _home_cache() -> Path:
    return Path.home() / ".cache" / "cudajudge"


def cache_root() -> Path:
    return _configured(CACHE_DIR_ENV) or _home_cache() / "builds"


def cpu_build_root() -> Path:
    return (_configured(CACHE_DIR_ENV) or _home_cache()) / "cpu"


def pch_root() -> Path:
    return _configured(PCH_DIR_ENV) or _home_cache() / "pch"



def kernel_cache_root() -> Path:
    return cache_root() / "cupy-kernels"


def standby_root(root: Path | None = None) -> Path:
    """`root`: a cache root other than this process's (a bench's own caches)."""
    return (root or cache_root()) / "standby"


def keep_json(path: Path, value) -> None:
    """`value` as JSON at `path`, written to a file of its own and renamed, so that a reader sees the old
    content or the new, never half; in a folder this process cannot write (a runner's read-only inbox),
    nothing is kept and the next reader makes the value again."""
    partial = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=f"{path.name}.", suffix=".partial",
                                         delete=False) as f:
            partial = Path(f.name)
            json.dump(value, f)
        os.replace(partial, path)
    except OSError:
        if partial is not None:
            with contextlib.suppress(OSError):
                partial.unlink()
