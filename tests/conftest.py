import os
import shutil
import subprocess

import pytest

# Judge commands that tests start keep no standby host behind; tests/sandbox/test_standby.py turns it on per call.
os.environ["CUDAJUDGE_STANDBY"] = "0"


def _gpu_present() -> bool:
    """A GPU that CuPy can use; checked without creating a context in the test process."""
    if shutil.which("nvidia-smi") is None:
        return False
    try:
        out = subprocess.run(["python3", "-c", "import cupy; print(cupy.cuda.runtime.getDeviceCount())"],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and out.stdout.strip() not in ("", "0")


def pytest_collection_modifyitems(config, items):
    if not any("gpu" in item.keywords for item in items):
        return
    if _gpu_present():
        return
    skip = pytest.mark.skip(reason="needs an NVIDIA GPU with CuPy")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
