"""A judge's run folder outlives a judge that is killed only until the next judge starts."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from judge.run_folder import PREFIX, SETTLE_S, sweep_orphans

ROOT = Path(__file__).resolve().parents[2]
ENDLESS = """\
#include <cuda_runtime.h>
__global__ void spin(float* out, int n) { while (true) { if (n < 0) out[0] = 1.0f; } }
extern "C" void solve(const float* input, float* output, int N) { spin<<<1, 32>>>(output, N); cudaDeviceSynchronize(); }
"""
HOLDER = """\
import sys, time
from judge.run_folder import run_folder
with run_folder() as folder:
    (folder / "data.bin").write_bytes(bytes(1 << 20))
    print(folder, flush=True)
    time.sleep(600)
"""


def _age(folder: Path) -> None:
    old = time.time() - 2 * SETTLE_S
    os.utime(folder, (old, old))


def _start_holder(tmp: Path) -> tuple[subprocess.Popen, Path]:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER], cwd=ROOT, env={**os.environ, "TMPDIR": str(tmp)},
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    return proc, Path(proc.stdout.readline().strip())


def test_the_folder_of_a_killed_process_is_swept_and_a_living_ones_is_kept(tmp_path):
    killed, killed_folder = _start_holder(tmp_path)
    living, living_folder = _start_holder(tmp_path)
    try:
        killed.kill()
        killed.wait(30)
        young = tmp_path / f"{PREFIX}young"   # just made: its judge may not hold the lock yet
        young.mkdir()
        for folder in (killed_folder, living_folder):
            assert folder.is_dir() and folder.name.startswith(PREFIX)
            _age(folder)
        assert sweep_orphans(tmp_path) == [killed_folder]
        assert not killed_folder.exists()
        assert (living_folder / "data.bin").exists() and young.is_dir()
    finally:
        living.terminate()
        living.wait(30)


def test_a_judge_removes_the_run_folder_of_a_judge_killed_before_it(tmp_path):
    endless = tmp_path / "endless.cu"
    endless.write_text(ENDLESS + f"// {time.time_ns()}\n")
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    judge = subprocess.Popen([sys.executable, "judge.py", "1", str(endless), "--backend", "cpu", "--no-standby"],
                             cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    ends = time.monotonic() + 120
    while not list(temp.glob(f"{PREFIX}*/runner/solution.so")) and time.monotonic() < ends:
        time.sleep(0.1)
    os.killpg(judge.pid, signal.SIGKILL)
    judge.wait(30)
    orphans = list(temp.glob(f"{PREFIX}*"))
    assert len(orphans) == 1, "the killed judge had no run folder with its build in it"
    _age(orphans[0])
    done = subprocess.run([sys.executable, "judge.py", "1", "problems/001-relu/solutions/accepted/vectorized.cu",
                           "--backend", "cpu", "--tests", "sample", "--no-standby", "--quiet"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert list(temp.glob(f"{PREFIX}*")) == []


WRITER = """\
import sys, time
folder, ends = sys.argv[1], time.monotonic() + float(sys.argv[2])
i = 0
while time.monotonic() < ends:
    try:
        open(f"{folder}/late-{i}.bin", "wb").close()
    except OSError:
        pass
    i += 1
"""


def test_a_run_folder_is_removed_while_a_dying_child_still_writes_into_it(tmp_path, monkeypatch):
    """A child whose sandbox was reaped may live on for a moment and write a file; the judge's removal of
    its folder neither fails nor leaves the folder behind."""
    import tempfile
    from judge.run_folder import run_folder

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with run_folder() as folder:
        exchange = folder / "oracle" / "exchange"
        exchange.mkdir(parents=True)
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(exchange), "0.15"])
        while not any(exchange.iterdir()):
            time.sleep(0.005)
    writer.wait(30)
    assert not folder.exists()
