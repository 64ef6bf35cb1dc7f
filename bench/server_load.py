"""Load on `cudajudge serve`: 200 submissions from 20 concurrent clients, each judged exactly once.

Starts a real server on loopback (SQLite in a temporary data dir, or --database-url), with CPU-backend
workers. Each client registers, logs in, then 10 times: reads the problem, submits problem 1 in mode
"run" (the sample tests) with a tiny correct source, follows the submission's events to the end, reads
the result and its own list. Every API call's latency is recorded (for the events stream: until the
response headers). At the end an admin checks every submission: done, AC, claimed once (attempts 1).

    python bench/server_load.py [--clients 20] [--per-client 10] [--workers 2] [--database-url URL]

Printed figures, not pass/fail (the exit code is 1 if a submission was lost, failed or judged twice).
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Iterator

import httpx

ROOT = Path(__file__).resolve().parents[1]
SOURCE = """#include <cuda_runtime.h>
__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}
extern "C" void solve(const float* input, float* output, int N) {
    relu<<<(N + 255) / 256, 256>>>(input, output, N);
}
"""
PASSWORD = "load-test-password"


class Stats:
    def __init__(self):
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.status: dict[int, int] = defaultdict(int)
        self.turnaround: list[float] = []

    async def call(self, client: httpx.AsyncClient, label: str, method: str, url: str, **kwargs) -> httpx.Response:
        while True:
            start = time.perf_counter()
            response = await client.request(method, url, **kwargs)
            self.latency[label].append(time.perf_counter() - start)
            self.status[response.status_code] += 1
            if response.status_code != 429:
                response.raise_for_status()
                return response
            await asyncio.sleep(float(response.headers.get("Retry-After", "1")))


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


async def follow(client: httpx.AsyncClient, stats: Stats, sid: int) -> None:
    start = time.perf_counter()
    async with client.stream("GET", f"/api/submissions/{sid}/events") as response:
        stats.latency["GET events (headers)"].append(time.perf_counter() - start)
        stats.status[response.status_code] += 1
        async for line in response.aiter_lines():
            if line.startswith("event: done"):
                return


async def sign_up(url: str, n: int, stats: Stats) -> str:
    async with httpx.AsyncClient(base_url=url, timeout=httpx.Timeout(120.0)) as c:
        name = f"load{n:02d}"
        await stats.call(c, "POST register", "POST", "/api/auth/register", json={"username": name, "password": PASSWORD})
        return (await stats.call(c, "POST login", "POST", "/api/auth/login",
                                 json={"username": name, "password": PASSWORD})).json()["token"]


async def one_client(url: str, n: int, token: str, per_client: int, stats: Stats) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=httpx.Timeout(30.0, read=600.0),
                                 headers={"Authorization": f"Bearer {token}"}) as c:
        for i in range(per_client):
            await stats.call(c, "GET problem", "GET", "/api/problems/1")
            submitted = time.perf_counter()
            body = {"problem": 1, "mode": "run", "source": SOURCE + f"// client {n} submission {i}\n"}
            sid = (await stats.call(c, "POST submission", "POST", "/api/submissions", json=body)).json()["id"]
            await follow(c, stats, sid)
            result = (await stats.call(c, "GET submission", "GET", f"/api/submissions/{sid}")).json()
            stats.turnaround.append(time.perf_counter() - submitted)
            if result["verdict"] != "AC":
                print(f"submission {sid}: {result['verdict']} {result['message']}", file=sys.stderr)
            await stats.call(c, "GET submissions?mine", "GET", "/api/submissions?mine&limit=20")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_server(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    """A real `cudajudge serve` on loopback; yields its URL and an admin token, and stops it afterwards."""
    data = Path(tempfile.mkdtemp(prefix="cudajudge-load-"))
    port = free_port()
    env = {**os.environ, "CUDAJUDGE_RATE_AUTH": f"{4 * args.clients},{4 * args.clients}"}
    common = ["--data-dir", str(data)] + (["--database-url", args.database_url] if args.database_url else [])
    admin = subprocess.run([sys.executable, "-m", "cudajudge", "admin", "create-user", "loadadmin", "--role", "admin",
                            "--password", PASSWORD, "--print-token", *common], cwd=ROOT, env=env,
                           capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    log = open(data / "server.log", "wb")
    server = subprocess.Popen([sys.executable, "-m", "cudajudge", "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--backend", "cpu", "--workers", str(args.workers), *common],
                              cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, server, data)
        yield url, admin
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()


def wait_healthy(url: str, server: subprocess.Popen, data: Path) -> None:
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            raise SystemExit(f"the server did not start; see {data / 'server.log'}")
        time.sleep(0.2)


def all_submissions(url: str, admin: str) -> list[dict]:
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {admin}"}, timeout=60) as c:
        items, before = [], None
        while True:
            page = c.get("/api/submissions", params={"limit": 500, **({"before": before} if before else {})}).json()
            items += page["items"]
            before = page["next_before"]
            if not before:
                return items


def print_latencies(stats: Stats) -> None:
    every = [x for v in stats.latency.values() for x in v]
    print(f"  {'API call':<24}{'n':>6}{'p50 ms':>10}{'p95 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    for label, values in sorted(stats.latency.items()) + [("all API calls (p95)", every)]:
        print(f"  {label:<24}{len(values):>6}{pct(values, 50) * 1e3:>10.1f}{pct(values, 95) * 1e3:>10.1f}"
              f"{pct(values, 99) * 1e3:>10.1f}{max(values) * 1e3:>10.1f}")


def report(args: argparse.Namespace, items: list[dict], wall: float, signup: Stats, stats: Stats) -> bool:
    """Prints the figures; true when every submission was judged exactly once and accepted."""
    expected = args.clients * args.per_client
    done = sum(s["status"] == "done" for s in items)
    accepted = sum(s["verdict"] == "AC" for s in items)
    once = sum(s["attempts"] == 1 for s in items)
    judge_s = [(_t(s["finished_at"]) - _t(s["started_at"])) for s in items if s["finished_at"] and s["started_at"]]
    print(f"\ncudajudge serve under load: {args.clients} clients x {args.per_client} submissions (mode run, problem 1, "
          f"CPU backend, {args.workers} workers, {'PostgreSQL' if args.database_url else 'SQLite'}, {os.cpu_count()} cores)")
    print(f"  submissions: {len(items)} stored of {expected} sent; {done} done, {accepted} AC, "
          f"{once} judged exactly once (attempts = 1)")
    print(f"  wall time {wall:.1f} s, throughput {expected / wall:.2f} submissions/s")
    print(f"  turnaround (submit -> result read): p50 {pct(stats.turnaround, 50):.2f} s, "
          f"p95 {pct(stats.turnaround, 95):.2f} s, max {max(stats.turnaround):.2f} s")
    print(f"  judging one submission (claimed -> done): p50 {pct(judge_s, 50):.2f} s, p95 {pct(judge_s, 95):.2f} s")
    for label, values in sorted(signup.latency.items()):
        print(f"  sign-up, {args.clients} at once: {label} p50 {pct(values, 50):.2f} s, max {max(values):.2f} s "
              f"(argon2id, {args.clients} hashes on {os.cpu_count()} cores)")
    print(f"  HTTP statuses under load: {dict(sorted(stats.status.items()))}")
    print_latencies(stats)
    ok = len(items) == expected == done == accepted == once
    print("  OK: every submission judged exactly once" if ok else "  FAILED: see the counts above")
    return ok


async def load(url: str, args: argparse.Namespace, signup: Stats, stats: Stats) -> float:
    """Signs every client up (argon2 hashing is deliberately expensive, so timed apart), then runs the load; its seconds."""
    tokens = await asyncio.gather(*(sign_up(url, n, signup) for n in range(args.clients)))
    start = time.perf_counter()
    await asyncio.gather(*(one_client(url, n, tokens[n], args.per_client, stats) for n in range(args.clients)))
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--per-client", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2, help="CPU-backend judging workers of the server")
    parser.add_argument("--database-url", default=None, help="default: SQLite in a temporary data dir")
    args = parser.parse_args()
    signup, stats = Stats(), Stats()
    with running_server(args) as (url, admin):
        wall = asyncio.run(load(url, args, signup, stats))
        items = all_submissions(url, admin)
    return 0 if report(args, items, wall, signup, stats) else 1


def _t(text: str) -> float:
    from datetime import datetime
    return datetime.fromisoformat(text).timestamp()


if __name__ == "__main__":
    raise SystemExit(main())
