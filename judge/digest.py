"""digest(): the one way the judge hashes what its caches are keyed by.

Build caches, the CPU runtime, NVRTC's precompiled headers, standby hosts and the server's copies of
a problem's files all name their entries by digest() of what the entry depends on.
"""
from __future__ import annotations

import hashlib
from pathlib import Path


def digest(*parts: bytes | str | Path, hex_digits: int = 64) -> str:
    """SHA-256 of `parts`, as its first `hex_digits` hex digits.

    Each part enters the hash as its length (8 bytes, little-endian) followed by its bytes, so
    different lists of parts never hash alike by running into each other. A str stands for its
    UTF-8 bytes; a Path for two parts: the path as given, then the file's contents."""
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, Path):
            _add(h, str(part).encode())
            _add(h, part.read_bytes())
        else:
            _add(h, part.encode() if isinstance(part, str) else part)
    return h.hexdigest()[:hex_digits]


def _add(h, data: bytes) -> None:
    h.update(len(data).to_bytes(8, "little"))
    h.update(data)
