"""The folder where a run child keeps the kernels CuPy compiles for the judge itself (fills,
comparisons, the baseline), so that the next run loads them instead of compiling them again.

The child also runs user code, so whatever it may write it may also forge. A folder is therefore
only ever shared by the runs of one account: forged kernels can mislead that account's later
judges and nobody else's. After every run the parent checks the folder and empties it when it
holds anything but plain files, or more than `KERNEL_CACHE_LIMIT_BYTES`.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

KERNEL_CACHE_LIMIT_BYTES = 256 << 20
# The largest file a GPU run child may write (its file-size limit): a compiled module, such as the
# device-wide algorithms' (about 1.4 MB). Output beyond the cap is still OLE: the parent measures it.
KERNEL_FILE_LIMIT_BYTES = 16 << 20
_ACCOUNT = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def account_folder(root: Path, account: str) -> Path:
    """The kernel cache of `account` under `root`; an account name is letters, digits, '_' and '-'."""
    if not _ACCOUNT.match(account):
        raise ValueError(f"kernel cache account {account!r}: use 1 to 64 letters, digits, '_' or '-'")
    folder = root / account
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder


def tidy(folder: Path) -> bool:
    """Empty `folder` unless it holds only plain files within the size limit. True when it was kept."""
    total = 0
    kept = True
    with os.scandir(folder) as entries:
        for entry in entries:
            if not entry.is_file(follow_symlinks=False):
                kept = False
                break
            total += entry.stat(follow_symlinks=False).st_size
    if kept and total <= KERNEL_CACHE_LIMIT_BYTES:
        return True
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return False
