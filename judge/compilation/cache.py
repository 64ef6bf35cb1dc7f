"""The build cache: one folder per build key, holding what the build made and its BuildResult.

GPU builds (key: build_key) live in judge.cache_paths.cache_root(), CPU builds (key: the CPU build's
own, judge.compilation.cpu_build) in cpu_build_root()/builds. Entries appear atomically (written
aside, then renamed), so concurrent builds of the same source are safe.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

from judge import __version__
from judge.compilation.result import BuildResult
from judge.compilation.toolchain import Toolchain, nvrtc_identity, pipeline_digest, runtime_digest
from judge.cache_paths import cache_root
from judge.digest import digest

RESULT_FILE = "build.json"


def build_key(source: bytes, signature: str, filename: str, arch: str, chain: Toolchain) -> str:
    return digest(source, signature, filename, arch, nvrtc_identity(chain), chain.cxx_version, __version__,
                  runtime_digest(), pipeline_digest())


class BuildCache:
    def __init__(self, root: Path | None = None):
        self.root = root or cache_root()

    def entry(self, key: str) -> Path:
        return self.root / key[:2] / key

    def load(self, key: str, started: float) -> BuildResult | None:
        """The stored build, marked cached, with the seconds since `started` that finding it took."""
        try:
            result = BuildResult.model_validate_json((self.entry(key) / RESULT_FILE).read_text())
        except (OSError, ValueError):
            return None
        if any(p is not None and not p.exists() for p in (result.cubin, result.library)):
            return None
        seconds = round(time.perf_counter() - started, 3)
        return result.model_copy(update={"cached": True,
                                         "compile": result.compile.model_copy(update={"cached": True, "seconds": seconds})})

    def workspace(self) -> Path:
        """A fresh folder to build in; store() turns it into an entry."""
        self.root.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix="building-", dir=self.root))

    def store(self, key: str, workspace: Path, result: BuildResult) -> BuildResult:
        """Move the workspace into place; the result's paths are rewritten to point into the entry."""
        final = self.entry(key)
        stored = result.model_copy(update={
            "cubin": final / result.cubin.name if result.cubin else None,
            "library": final / result.library.name if result.library else None,
        })
        (workspace / RESULT_FILE).write_text(stored.model_dump_json(indent=1))
        final.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.rename(workspace, final)
        except OSError:   # another process stored the same build first
            shutil.rmtree(workspace, ignore_errors=True)
        return stored

    def discard(self, workspace: Path) -> None:
        shutil.rmtree(workspace, ignore_errors=True)
