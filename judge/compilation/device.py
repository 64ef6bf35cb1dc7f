"""The device TU -> a cubin, through NVRTC in a worker process, with the kernels' lowered names."""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from judge.compilation.pch import PchSlot, forget, pch_slot, trim
from judge.compilation.nvrtc_worker import PCH_HEAP_BYTES
from judge.compilation.process import COMPILER_MEMORY_BYTES, CompilerProcess, reports_out_of_memory
from judge.compilation.toolchain import DEVICE_INCLUDE_DIR, NVCC_NAMES_HEADER, Toolchain, nvrtc_identity, runtime_digest

WORKER = Path(__file__).with_name("nvrtc_worker.py")
NVRTC_LOG_CAP = 64 * 1024


def device_options(arch: str, chain: Toolchain) -> list[str]:
    # -default-device: NVRTC refuses unannotated functions; the split leaves only those device code
    # may call (constexpr helpers, member functions), which nvcc would compile for the device too.
    return [f"--gpu-architecture={arch}", "-std=c++17", "-lineinfo", "-default-device",
            f"--pre-include={NVCC_NAMES_HEADER}", *(f"-I{d}" for d in (*chain.include_dirs, DEVICE_INCLUDE_DIR))]


def _with_prelude(text: bytes, headers: tuple[str, ...], filename: str) -> bytes:
    """The heavy headers first, then a declaration that ends the precompiled part, then the file."""
    includes = "".join(f"#include <{h}>\n" for h in headers)
    return f'{includes}namespace cudajudge_precompiled_prefix {{}}\n#line 1 "{filename}"\n'.encode() + text


@dataclass(frozen=True)
class DeviceOutcome:
    ok: bool
    log: str
    seconds: float
    lowered: dict[str, str] = field(default_factory=dict)
    limit: str | None = None     # the cap that stopped NVRTC: time | memory | None
    crashed: bool = False
    pch: str | None = None       # used | created | not created | incompatible | None (not tried)


class DeviceCompile:
    """Starts NVRTC on construction; finish() waits for it."""

    def __init__(self, text: bytes, pch_headers: tuple[str, ...], name_expressions: list[str], arch: str,
                 filename: str, workdir: Path, chain: Toolchain):
        options = device_options(arch, chain)
        self.slot: PchSlot | None = pch_slot(pch_headers, options, f"{nvrtc_identity(chain)}:{runtime_digest()}") if pch_headers else None
        source_path = workdir / "device.cu"
        source_path.write_bytes(_with_prelude(text, pch_headers, filename) if self.slot else text)
        self.cubin = workdir / "device.cubin"
        request = {"source_path": str(source_path), "name": filename, "options": options,
                   "name_expressions": name_expressions, "cubin_path": str(self.cubin), "log_cap": NVRTC_LOG_CAP,
                   "pch": {"path": str(self.slot.path), "scratch": str(self.slot.scratch)} if self.slot else None}
        args = [sys.executable, "-I", str(WORKER)] + (["--pch"] if self.slot else [])
        # The PCH heap is address space reserved up front and mostly untouched (CUB: 1.3-1.5 GiB in
        # all, 0.35-0.55 GiB resident), so it does not count against the compile's own budget.
        memory = COMPILER_MEMORY_BYTES + (PCH_HEAP_BYTES if self.slot else 0)
        self.job = CompilerProcess(args, stdin=json.dumps(request).encode(), writable=(workdir,), memory_bytes=memory)

    def finish(self, deadline: float) -> DeviceOutcome:
        done = self.job.wait(deadline)
        if done.limit is not None:
            return DeviceOutcome(False, done.stderr[-4000:], done.seconds, limit=done.limit)
        try:
            reply = json.loads(done.stdout)
        except json.JSONDecodeError:
            return DeviceOutcome(False, done.stderr[-4000:], done.seconds, crashed=True)
        if self.slot is not None:
            if reply["pch"] == "incompatible":
                forget(self.slot)
            elif reply["pch"] == "created":
                trim()
        # NVRTC itself reports a failed allocation in its log, and the worker exits normally.
        limit = "memory" if not reply["ok"] and reports_out_of_memory(reply["log"]) else None
        return DeviceOutcome(reply["ok"], reply["log"], done.seconds, reply["lowered"], limit=limit, pch=reply["pch"])
