"""The kernel cache a run child shares with the later runs of the same account: per-account
folders, the parent's check after every run, and a bubblewrap view that can write there and
nowhere else."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from sandbox import bubblewrap, kernel_cache
from sandbox.runner import run_child


def test_account_folder_is_private_and_named_safely(tmp_path):
    folder = kernel_cache.account_folder(tmp_path, "user-42")
    assert folder == tmp_path / "user-42" and folder.is_dir()
    assert folder.stat().st_mode & 0o077 == 0
    for bad in ("../user-1", "a/b", "", "x" * 65):
        with pytest.raises(ValueError, match="kernel cache account"):
            kernel_cache.account_folder(tmp_path, bad)


def test_tidy_keeps_plain_files_within_the_limit(tmp_path):
    (tmp_path / "0123abcd.cubin").write_bytes(b"\0" * 1000)
    assert kernel_cache.tidy(tmp_path)
    assert (tmp_path / "0123abcd.cubin").exists()


@pytest.mark.parametrize("planted", ["symlink", "folder", "oversize"])
def test_tidy_empties_a_folder_holding_anything_else(tmp_path, monkeypatch, planted):
    (tmp_path / "kept-until-now.cubin").write_bytes(b"\0" * 100)
    if planted == "symlink":
        (tmp_path / "link.cubin").symlink_to("/etc/passwd")
    elif planted == "folder":
        (tmp_path / "nested").mkdir()
    else:
        monkeypatch.setattr(kernel_cache, "KERNEL_CACHE_LIMIT_BYTES", 150)
        (tmp_path / "big.cubin").write_bytes(b"\0" * 100)
    assert not kernel_cache.tidy(tmp_path)
    assert tmp_path.is_dir() and not os.listdir(tmp_path)


def test_run_child_points_cupy_at_the_account_folder(tmp_path):
    folder = kernel_cache.account_folder(tmp_path / "kernels", "local")
    shared = run_child("judge.runner", gpu=True, build_dir=tmp_path, hidden=[],
                       kernel_cache_folder=folder)
    private = run_child("judge.runner", gpu=True, build_dir=tmp_path, hidden=[])
    assert shared.env["CUPY_CACHE_DIR"] == str(folder) and shared.kernel_cache == folder
    assert private.env["CUPY_CACHE_DIR"] == "/tmp/cupy-cache" and private.kernel_cache is None


@pytest.mark.skipif(not bubblewrap.available(), reason="bubblewrap cannot run here")
def test_run_view_writes_the_kernel_folder_and_nothing_beside_it(tmp_path):
    kernels, build = tmp_path / "kernels", tmp_path / "build"
    kernels.mkdir()
    build.mkdir()
    probe = ("import sys\n"
             "open(sys.argv[1] + '/k.cubin', 'w').write('compiled')\n"
             "try:\n    open(sys.argv[2] + '/forged', 'w').write('x')\nexcept OSError:\n    print('read-only')\n")
    command = bubblewrap.run_command([sys.executable, "-c", probe, str(kernels), str(build)], code_dirs=[],
                                     read_only=[build], hidden=[], gpu=False, env={}, writable=[kernels])
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "read-only"
    assert (kernels / "k.cubin").read_text() == "compiled" and not (build / "forged").exists()
