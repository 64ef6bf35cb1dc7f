"""The run child's bubblewrap view starts on this machine, with and without GPU nodes, and shows
the GPU's read-only folders even where they are symbolic links inside another bind."""
from __future__ import annotations

import os
import subprocess
import sys

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
