"""The store of NVRTC precompiled headers, one per set of heavy headers a file opens with.

A PCH file for CUB plus cooperative groups is about 300 MB, so the store keeps only the most
recently used few. Its folder: judge.cache_paths.pch_root().
"""
from __future__ import annotations

import os
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path

from judge.cache_paths import pch_root
from judge.digest import digest

MAX_PCH_FILES = 6


@dataclass(frozen=True)
class PchSlot:
    path: Path        # the PCH file, used when present
    scratch: Path     # where a worker writes a new one before moving it into place


def pch_slot(headers: tuple[str, ...], options: list[str], nvrtc_identity: str) -> PchSlot:
    # The worker's address-space layout depends on the interpreter, so it is part of the key.
    key = digest(*headers, *options, nvrtc_identity, sys.executable, hex_digits=32)
    folder = pch_root()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{key}.pch"
    if path.exists():
        os.utime(path)   # most recently used
    # Unique per build: threads of one process may compile the same header set at once.
    return PchSlot(path, folder / f"{key}.{os.getpid()}.{secrets.token_hex(6)}.partial")


def forget(slot: PchSlot) -> None:
    """Drop a PCH the worker found unusable, so the next build makes a fresh one."""
    slot.path.unlink(missing_ok=True)


def trim() -> None:
    files = sorted(pch_root().glob("*.pch"), key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in files[MAX_PCH_FILES:]:
        stale.unlink(missing_ok=True)
