"""The machine's NVIDIA GPUs, asked through nvidia-smi (never a CUDA context): index, UUID, model, device node.

A run child pinned to one GPU gets `CUDA_VISIBLE_DEVICES=<its UUID>` (a UUID cannot be misread
the way an index can when CUDA and nvidia-smi order devices differently) and, in bubblewrap,
only that GPU's `/dev/nvidiaN` node, whose minor number the driver reports per PCI address.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

DRIVER_GPUS = Path("/proc/driver/nvidia/gpus")


@dataclass(frozen=True)
class Gpu:
    index: int            # nvidia-smi's index (PCI bus order)
    uuid: str             # GPU-xxxxxxxx-...
    name: str             # e.g. "NVIDIA H100 80GB HBM3"
    minor: int | None     # N of /dev/nvidiaN; None when the driver does not say

    @property
    def model(self) -> str:
        return gpu_model_key(self.name)

    @property
    def device_node(self) -> str:
        return f"/dev/nvidia{self.minor if self.minor is not None else self.index}"

    def child_environment(self) -> dict[str, str]:
        return {"CUDA_VISIBLE_DEVICES": self.uuid, "CUDA_DEVICE_ORDER": "PCI_BUS_ID"}


def gpu_model_key(name: str) -> str:
    """A GPU model as routing uses it: 'NVIDIA H100 80GB HBM3' and 'h100-80gb-hbm3' are both 'h100-80gb-hbm3'."""
    words = re.sub(r"[^a-z0-9]+", " ", name.lower()).split()
    if words and words[0] == "nvidia":
        words = words[1:]
    return "-".join(words)


def _minor(bus_id: str) -> int | None:
    """The device minor the driver gives the GPU at `bus_id` ('00000000:18:00.0')."""
    for folder in (DRIVER_GPUS / bus_id.lower(), DRIVER_GPUS / bus_id.lower()[4:]):
        try:
            text = (folder / "information").read_text()
        except OSError:
            continue
        found = re.search(r"^Device Minor:\s*(\d+)", text, re.M)
        if found:
            return int(found.group(1))
    return None


def list_gpus() -> list[Gpu]:
    """The GPUs nvidia-smi lists; empty without nvidia-smi or a driver."""
    if shutil.which("nvidia-smi") is None:
        return []
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=index,uuid,name,pci.bus_id", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return []
    if out.returncode != 0:
        return []
    gpus = []
    for line in out.stdout.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) == 4 and fields[0].isdigit():
            gpus.append(Gpu(int(fields[0]), fields[1], fields[2], _minor(fields[3])))
    return gpus
