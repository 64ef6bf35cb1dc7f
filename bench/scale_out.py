"""Scale-out throughput: submissions judged per minute with 1, 2 and 3 `cudajudge worker` processes.

For each worker count: a fresh database on the given PostgreSQL server, `cudajudge serve --dispatch
queue` and the workers (CPU backend) on loopback; one warm-up submission (it fills the build cache),
then --submissions submissions of problem 1 in mode "run" (two tiny sample tests, one source), sent
at once. Throughput is counted from the first submission to the last result; each submission must
be judged exactly once (one claim, verdict AC), else the exit code is 1.

    python bench/scale_out.py --database-url postgresql://postgres@127.0.0.1:55432/postgres \
        [--submissions 120] [--workers 1,2,3]

(--database-url defaults to $CUDAJUDGE_TEST_POSTGRES_URL; the role must be allowed to create databases.)
Printed figures, not pass/fail.
"""
from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from server.db import scratch_database

ROOT = Path(__file__).resolve().parents[1]
SOURCE = (ROOT / "problems" / "001-relu" / "solutions" / "accepted" / "naive.cu").read_text()
FAST = {"CUDAJUDGE_RATE_SUBMIT": "100000,100000", "CUDAJUDGE_RATE_API": "100000,100000",
        "CUDAJUDGE_SWEEP_S": "2", "CUDAJUDGE_HEARTBEAT_S": "2", "CUDAJUDGE_POLL_S": "1"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def metric(text: str, name: str, labels: str = "") -> float:
    found = re.search(rf"^{re.escape(name + labels)} (\S+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


def wait_done(client: httpx.Client, expected: int, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = client.get("/api/metrics").text
        if metric(text, "cudajudge_submissions", '{status="done"}') >= expected:
            return text
        time.sleep(0.2)
    raise SystemExit(f"not all {expected} submissions were judged in {timeout:g} s")


def run_once(admin_url: str, workers: int, submissions: int, scratch: Path) -> dict:
    url, drop = scratch_database(admin_url, "cj_bench")
    env = {**os.environ, **FAST, "CUDAJUDGE_DATABASE_URL": url}
    data = scratch / f"data-{workers}"
    procs: list[subprocess.Popen] = []
    try:
        token = subprocess.run([sys.executable, "-m", "cudajudge", "admin", "create-user", "benchadmin", "--role", "admin",
                                "--password", "bench-password", "--print-token", "--data-dir", str(data)],
                               env=env, cwd=ROOT, check=True, capture_output=True, text=True).stdout.split()[-1]
        port = free_port()
        procs.append(subprocess.Popen([sys.executable, "-m", "cudajudge", "serve", "--port", str(port), "--data-dir",
                                       str(data), "--dispatch", "queue", "--backend", "cpu"], env=env, cwd=ROOT,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        for i in range(workers):
            procs.append(subprocess.Popen([sys.executable, "-m", "cudajudge", "worker", "--backend", "cpu", "--data-dir",
                                           str(scratch / f"worker-{workers}-{i}"), "--log-level", "warning"], env=env,
                                          cwd=ROOT, start_new_session=True))
        client = httpx.Client(base_url=f"http://127.0.0.1:{port}", headers={"Authorization": f"Bearer {token}"},
                              timeout=60)
        deadline = time.monotonic() + 60
        while True:
            try:
                if client.get("/api/health").json()["workers"] >= workers:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server or the workers did not come up")
            time.sleep(0.2)
        body = {"problem": 1, "source": SOURCE, "mode": "run"}
        client.post("/api/submissions", json=body).raise_for_status()          # warm-up: the build
        wait_done(client, 1, 120)
        start = time.perf_counter()
        for _ in range(submissions):
            client.post("/api/submissions", json=body).raise_for_status()
        text = wait_done(client, submissions + 1, 600)
        elapsed = time.perf_counter() - start
        listed = client.get("/api/submissions", params={"limit": 500}).json()["items"]
        once = all(s["attempts"] == 1 and s["verdict"] == "AC" for s in listed) and len(listed) == submissions + 1
        return {"workers": workers, "elapsed": elapsed, "per_minute": submissions / elapsed * 60,
                "judge_p50": metric(text, "cudajudge_judge_seconds", '{quantile="0.5"}'),
                "wait_p50": metric(text, "cudajudge_wait_seconds", '{quantile="0.5"}'), "once": once}
    finally:
        for proc in reversed(procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        drop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("CUDAJUDGE_TEST_POSTGRES_URL"),
                        help="a PostgreSQL server where databases may be created (default: $CUDAJUDGE_TEST_POSTGRES_URL)")
    parser.add_argument("--submissions", type=int, default=120)
    parser.add_argument("--workers", default="1,2,3", help="worker counts to measure, e.g. 1,2,3")
    args = parser.parse_args()
    if not args.database_url:
        parser.error("--database-url is required (a PostgreSQL server)")
    rows = []
    with tempfile.TemporaryDirectory(prefix="cudajudge-bench-") as scratch:
        for n in (int(x) for x in args.workers.split(",")):
            rows.append(run_once(args.database_url, n, args.submissions, Path(scratch)))
            print(f"  {n} worker(s): {rows[-1]['per_minute']:.0f} submissions/minute", file=sys.stderr)
    print(f"\nscale-out throughput: {args.submissions} submissions (problem 1, mode run, CPU backend), "
          f"{os.cpu_count()} cores\n")
    print(f"{'workers':>7}  {'seconds':>8}  {'subs/min':>8}  {'speed-up':>8}  {'judge p50 s':>11}  "
          f"{'wait p50 s':>10}  {'each once':>9}")
    for row in rows:
        print(f"{row['workers']:>7}  {row['elapsed']:>8.1f}  {row['per_minute']:>8.0f}  "
              f"{row['per_minute'] / rows[0]['per_minute']:>7.2f}x  {row['judge_p50']:>11.2f}  {row['wait_p50']:>10.1f}  "
              f"{'yes' if row['once'] else 'NO':>9}")
    return 0 if all(row["once"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
