"""The client side of `cudajudge judge PROBLEM FILE --server URL --token T`.

Submits, follows the submission's events (reconnecting with Last-Event-ID, or polling when the
stream is unavailable), then fetches the Result: the caller renders it as a local judge would.
Only needs httpx: no web framework, no database.
"""
from __future__ import annotations

import json
import time
from typing import Callable, Iterator

import httpx
from pydantic import ValidationError

from judge.protocol import PROGRESS, Progress, Queued
from judge.result import CompileInfo, Result, Verdict

EventHook = Callable[[Progress], None]


class RemoteError(Exception):
    """The server refused or failed: the message says why (its `detail`)."""


def _detail(response: httpx.Response) -> str:
    try:
        detail = response.json().get("detail")
    except (json.JSONDecodeError, AttributeError, ValueError):
        return f"HTTP {response.status_code}: {response.text[:300]}"
    if isinstance(detail, list):   # a validation error
        detail = "; ".join(f"{'.'.join(str(p) for p in d.get('loc', [])[1:])}: {d.get('msg')}" for d in detail)
    elif isinstance(detail, dict):
        detail = detail.get("message", json.dumps(detail))
    return f"HTTP {response.status_code}: {detail}"


def _sse_events(response: httpx.Response) -> Iterator[tuple[str, str | None, dict]]:
    """(event, id, data) of a text/event-stream response."""
    event, event_id, data = "message", None, []
    for line in response.iter_lines():
        if line == "":
            if data:
                try:
                    payload = json.loads("\n".join(data))
                except json.JSONDecodeError:
                    payload = {}
                yield event, event_id, payload
            event, data = "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
        elif field == "id":
            event_id = value


def _progress(event: str, data: dict) -> Progress | None:
    """A server-sent event as the progress a local judge reports; None for one that is not progress
    (or that a server of another version sent malformed)."""
    fields = {"test": lambda: {"kind": "test", "result": data.get("result", {})},
              "status": lambda: {**data, "kind": "status"},
              "compile": lambda: {"kind": "build_done", "compile": data},
              "restart": lambda: {**data, "kind": "restart"}}
    if event not in fields:
        return None
    try:
        return PROGRESS.validate_python(fields[event]())
    except ValidationError:
        return None


class RemoteJudge:
    def __init__(self, server: str, token: str, timeout_s: float = 30.0, client: httpx.Client | None = None):
        if not token:
            raise RemoteError("--server needs --token (or CUDAJUDGE_TOKEN): create one on the server's account page "
                              "(/account, when signed in) or with POST /api/auth/tokens")
        self.client = client or httpx.Client(base_url=server.rstrip("/"), timeout=timeout_s)
        self.client.headers["Authorization"] = f"Bearer {token}"

    def close(self) -> None:
        self.client.close()

    def _call(self, method: str, path: str, **kwargs) -> dict:
        for attempt in range(5):
            try:
                response = self.client.request(method, path, **kwargs)
            except httpx.HTTPError as exc:
                raise RemoteError(f"cannot reach the server: {exc}") from None
            if response.status_code == 429 and attempt < 4:
                time.sleep(min(30.0, float(response.headers.get("Retry-After", "2"))))
                continue
            if response.status_code >= 400:
                raise RemoteError(_detail(response))
            return response.json()
        raise RemoteError("the server kept answering 429 (too many requests)")

    def submit(self, problem: str, source: str, mode: str, filename: str, gpu: str | None = None) -> dict:
        return self._call("POST", "/api/submissions",
                          json={"problem": problem, "source": source, "mode": mode, "filename": filename, "gpu": gpu})

    def follow(self, submission_id: int, on_event: EventHook, max_wait_s: float = 3600.0) -> None:
        """Relay the submission's events until it is done."""
        deadline = time.monotonic() + max_wait_s
        last_id: str | None = None
        failures = 0
        while time.monotonic() < deadline:
            headers = {"Last-Event-ID": last_id} if last_id else {}
            try:
                with self.client.stream("GET", f"/api/submissions/{submission_id}/events", headers=headers,
                                        timeout=httpx.Timeout(30.0, read=120.0)) as response:
                    if response.status_code >= 400:
                        response.read()
                        raise RemoteError(_detail(response))
                    for event, event_id, data in _sse_events(response):
                        last_id = event_id or last_id
                        progress = _progress(event, data)
                        if progress is not None:
                            on_event(progress)
                        if event == "restart":
                            last_id = None
                        if event == "done":
                            return
            except httpx.HTTPError:
                failures += 1
                if failures > 5:
                    break
                time.sleep(1.0)
        # the stream is unavailable: poll
        while time.monotonic() < deadline:
            if self._call("GET", f"/api/submissions/{submission_id}")["status"] == "done":
                return
            time.sleep(1.0)
        raise RemoteError(f"submission {submission_id} did not finish in {max_wait_s:.0f} s")

    def result(self, submission_id: int) -> Result:
        body = self._call("GET", f"/api/submissions/{submission_id}")
        if body.get("result"):
            return Result.model_validate(body["result"])
        return Result(problem=body.get("problem", "?"), backend=body.get("backend") or "none", seed=0,
                      verdict=Verdict(body.get("verdict") or "IE"), message=body.get("message") or "no result",
                      compile=CompileInfo(ok=False))

    def judge(self, problem: str, source: str, *, mode: str = "submit", filename: str = "solution.cu",
              gpu: str | None = None, on_event: EventHook = lambda e: None) -> tuple[int, Result]:
        submission = self.submit(problem, source, mode, filename, gpu)
        on_event(Queued(id=submission["id"]))
        self.follow(submission["id"], on_event)
        return submission["id"], self.result(submission["id"])
