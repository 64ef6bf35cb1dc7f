"""What a build produces, as the CLI, the harness and the cache see it."""
from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from judge.result import CompileInfo

LIBRARY_NAME = "solution.so"    # a build's shared library, GPU or CPU, in its build folder


class KernelInfo(BaseModel):
    name: str              # as the source names it, e.g. "scan<BLOCK>"
    expression: str        # the same at file scope, the NVRTC name expression, e.g. "scan<256>"
    lowered: str           # its name in the cubin
    line: int              # where the source first names it


class BuildResult(BaseModel):
    compile: CompileInfo
    arch: str | None = None                # the GPU architecture; None for a CPU build
    cubin: Path | None = None
    library: Path | None = None            # the host shared library that exports solve()
    observed_library: Path | None = None   # CPU: the same with every memory access observed (small tests)
    kernels: list[KernelInfo] = Field(default_factory=list)
    device_algorithms: bool = False        # the host code calls CUB's or Thrust's device-wide algorithms
    cached: bool = False
    nvrtc_s: float | None = None           # device compile wall time (of the build that made it)
    host_s: float | None = None            # host compile + link wall time
    pch: str | None = None                 # NVRTC precompiled header: used | created | ...

    @property
    def ok(self) -> bool:
        return self.compile.ok

    def artifacts(self) -> dict[str, str]:
        """What the runner's backend needs besides the library."""
        if self.observed_library:
            return {"observed": str(self.observed_library)}
        if not self.cubin:
            return {}
        return {"cubin": str(self.cubin), "arch": self.arch, **({"device_algorithms": "1"} if self.device_algorithms else {})}
