"""After a run child is killed, is the GPU free again? Asked through nvidia-smi (NVML), with a timeout."""
from __future__ import annotations

import os
import shutil
import subprocess
import time

RELEASE_TIMEOUT_S = 10.0
RELEASE_POLL_S = 0.2


def descendants(pid: int) -> set[int]:
    """`pid` and every process below it, read from /proc (bubblewrap puts the child two levels down)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
    found, frontier = {pid}, [pid]
    while frontier:
        current = frontier.pop()
        children = [child for child, parent in parents.items() if parent == current and child not in found]
        found.update(children)
        frontier.extend(children)
    return found


def gpu_pids() -> set[int] | None:
    """Processes holding a CUDA context, or None where the GPU cannot be asked."""
    if shutil.which("nvidia-smi") is None:
        return None
    try:
        out = subprocess.run(["nvidia-smi", "--query-compute-apps=pid", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    return {int(line) for line in out.stdout.split() if line.strip().isdigit()}


def wait_released(pids: set[int], timeout_s: float = RELEASE_TIMEOUT_S) -> bool:
    """True once none of `pids` is alive or holds the GPU."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        alive = {p for p in pids if os.path.exists(f"/proc/{p}")}
        holding = gpu_pids()
        if not alive and (holding is None or not (holding & pids)):
            return True
        time.sleep(RELEASE_POLL_S)
    return False
