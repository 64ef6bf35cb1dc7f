"""The run child's bubblewrap view starts on this machine, with and without GPU nodes, and shows
the GPU's read-only folders even where they are symbolic links inside another bind."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from sandbox import bubblewrap

pytestmark = pytest.mark.skipif(not bubblewrap.available(), reason="bubblewrap cannot run here")


@pytest.mark.parametrize("gpu", [False, True])
def test_run_view_starts(gpu, tmp_path):
    shown = [p for p in bubblewrap.GPU_READ_ONLY if os.path.exists(p)] if gpu else []
    probe = "import os, sys; missing = [p for p in sys.argv[1:] if not os.path.exists(p)]; print(missing or 'ok')"
    command = bubblewrap.run_command([sys.executable, "-c", probe, *shown], code_dirs=[], read_only=[tmp_path],
                                     hidden=[], gpu=gpu, env={})
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr or done.stdout


def test_repository_folders_besides_the_judge_stay_out_of_the_view(monkeypatch):
    root = Path(bubblewrap.__file__).resolve().parents[1]
    monkeypatch.setattr(sys, "path", [str(root / "tests"), str(root / "bench"), *sys.path])
    command = bubblewrap.run_command(["true"], code_dirs=[root / "judge", root / "sandbox"], read_only=[],
                                     hidden=[root / "problems"], gpu=False, env={})
    bound = {command[i + 1] for i, word in enumerate(command) if word == "--ro-bind"}
    assert str(root / "judge") in bound and str(root / "sandbox") in bound
    assert not any(b == str(root) or b.startswith(str(root / "tests")) or b.startswith(str(root / "bench"))
                   for b in bound), sorted(bound)


def test_a_temporary_folder_on_sys_path_does_not_show_the_hosts_temporary_files(monkeypatch, tmp_path):
    """A script run from /tmp puts /tmp on sys.path: the child's /tmp stays its own, writable and
    without the host's files (other runs' folders lie there)."""
    host_tmp = Path(tempfile.gettempdir())
    with tempfile.NamedTemporaryFile(dir=host_tmp, prefix="cudajudge-host-file-") as host_file:
        monkeypatch.setattr(sys, "path", [str(host_tmp), *sys.path])
        probe = ("import os, sys, tempfile; tempfile.mkstemp(); "
                 "print('seen' if os.path.exists(sys.argv[1]) else 'private')")
        command = bubblewrap.run_command([sys.executable, "-c", probe, host_file.name], code_dirs=[], read_only=[],
                                         hidden=[], gpu=False, env={})
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "private", done.stderr or done.stdout
