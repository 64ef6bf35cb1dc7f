"""The folder in which a judge's own runner and oracle work (when it adopts no standby pair): made in
the system's temporary folder and removed when the judge ends.

A judge that is killed (SIGKILL, a worker's machine running out of memory) cannot remove its folder,
which holds the test data and outputs of every test it had made: gigabytes for a large problem. So a
judge holds a lock on its folder while it lives, and each judge first removes the folders whose lock is
free. The lock goes with the process however it ends, in whatever PID namespace it ran.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

# Only folders named so are swept: their judges lock them. (A judge of an older version, which named its
# folder otherwise and held no lock, may still be running.)
PREFIX = "cudajudge-judge-"
SETTLE_S = 60.0   # a folder this young may be one whose judge has not locked it yet
# A sandboxed child outlives its reaped bubblewrap by the moment its parent-death signal takes, and may
# write a last file meanwhile: the removal tries again this many times, waiting REMOVE_PAUSE_S more each.
REMOVE_TRIES, REMOVE_PAUSE_S = 8, 0.025


def _locked(folder: Path, blocking: bool) -> int | None:
    """A descriptor of `folder` holding its lock; None when another process holds it or it is gone."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
    except OSError:
        os.close(fd)
        return None
    return fd


def sweep_orphans(root: Path | None = None) -> list[Path]:
    """Remove the run folders in `root` (the temporary folder) whose judge has ended; returns them."""
    root = Path(root or tempfile.gettempdir())
    removed = []
    for folder in root.glob(f"{PREFIX}*"):
        try:
            if time.time() - folder.lstat().st_mtime < SETTLE_S or folder.is_symlink():
                continue
        except OSError:
            continue
        fd = _locked(folder, blocking=False)
        if fd is None:
            continue
        try:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
        finally:
            os.close(fd)
    return removed


def _remove(folder: Path) -> None:
    """Remove `folder`, trying again while files still appear in it; one that stays is swept by a later
    judge once its lock is free (a judge's own cleanup never fails the judge)."""
    for attempt in range(REMOVE_TRIES):
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            return
        time.sleep(REMOVE_PAUSE_S * (attempt + 1))


@contextmanager
def run_folder() -> Iterator[Path]:
    """A new run folder, locked while the judge uses it and while it is removed; the folders of judges that
    were killed are removed first."""
    sweep_orphans()
    folder = Path(tempfile.mkdtemp(prefix=PREFIX))
    fd = _locked(folder, blocking=True)
    try:
        yield folder
    finally:
        _remove(folder)
        if fd is not None:
            os.close(fd)
