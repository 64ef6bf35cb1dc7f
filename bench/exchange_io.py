"""What the judge side's file work costs per GiB, in each folder its files may live in: the system's
temporary folder (children a command starts), the cache folder (a standby host's inboxes) and
/dev/shm. Per step, as a large test does it (`judge/exchange.py`): an input copied into a new file (the
runner's exchange file; the runner fills the outputs itself), a copy of it into a new empty file (the
outputs for the oracle), the two compared, both released. Seconds per GiB, best of REPEATS (default 3).
Printed figures, not pass/fail.

    python bench/exchange_io.py [GIB]
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from judge import exchange as X
from judge.cache_paths import cache_root

REPEATS = int(os.environ.get("REPEATS", "3"))
INPUT_PATTERN = b"\x01\x02\x03\x04"


def one_round(folder: Path, nbytes: int) -> dict[str, float]:
    seconds: dict[str, float] = {}

    def step(name: str, work):
        began = time.perf_counter()
        result = work()
        seconds[name] = time.perf_counter() - began
        return result

    source = X.create(folder / "input", 0)
    X.write_bytes(source, 0, INPUT_PATTERN * (nbytes // len(INPUT_PATTERN)))
    exchange = step("copy input in", lambda: (fd := X.create(folder / "exchange", nbytes),
                                              X.copy_range(source, 0, fd, 0, nbytes))[0])
    got = step("copy into new file", lambda: (fd := X.create(folder / "got", 0), X.copy_range(exchange, 0, fd, 0, nbytes))[0])
    step("compare", lambda: X.first_difference(exchange, 0, got, 0, nbytes))
    step("release", lambda: (X.release(got, folder / "got"), X.release(exchange, folder / "exchange")))
    X.release(source, folder / "input")
    return seconds


def main() -> None:
    gib = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    nbytes = int(gib * (1 << 30)) // 64 * 64
    roots = {"temporary folder": Path(tempfile.gettempdir()), "cache folder": cache_root(), "/dev/shm": Path("/dev/shm")}
    print(f"seconds per GiB, best of {REPEATS}, {gib:g} GiB files")
    for label, root in roots.items():
        if not root.is_dir() and label != "cache folder":
            continue
        root.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix="cudajudge-io-", dir=root))
        try:
            rounds = [one_round(folder, nbytes) for _ in range(REPEATS)]
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        best = {k: min(r[k] for r in rounds) / gib for k in rounds[0]}
        print(f"{label:<17} ({root}): " + "  ".join(f"{k} {v:.2f}" for k, v in best.items()))


if __name__ == "__main__":
    main()
