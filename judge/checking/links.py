"""Typed channels to the runner and the oracle, over their sandboxed children (sandbox.runner).

Every line a child sends is decoded as a message of its channel and must be the kind the judge side
waits for; anything else ends the child. A runner that breaks the protocol, dies or overstays is the
submission's failure (RunnerBroke); an oracle that does is the problem's or the judge's (OracleBroke).
"""
from __future__ import annotations

import time

from judge.checking.phases import PhaseClock
from judge.protocol import (ORACLE_EVENTS, RUNNER_EVENTS, Message, OracleFailed, ProtocolError, RunnerFailed, decode,
                            encode)
from sandbox.runner import Child, ChildEnded

IDLE_DEADLINE_S = 600.0        # for replies that run no user code (placing buffers, making data)


class RunnerBroke(Exception):
    """`reason`: a sandbox.runner.ChildEnded reason, or "protocol"; `message`: what the runner sent."""

    def __init__(self, reason: str, message: str = ""):
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason, self.message = reason, message


class OracleBroke(Exception):
    pass


def _receive(child: Child, clock: PhaseClock, reply: type, deadline_s: float) -> bytes:
    """The child's next line; the wait counts towards the phase of `reply`, however it ended."""
    since = time.monotonic()
    try:
        return child.receive(deadline_s)
    finally:
        clock.waited(reply.__name__, since)


class RunnerLink:
    def __init__(self, child: Child, clock: PhaseClock | None = None):
        self.child, self.clock = child, clock or PhaseClock()

    def send(self, command: Message) -> None:
        self.child.send(encode(command))

    def expect(self, kinds: tuple[type, ...], deadline_s: float = IDLE_DEADLINE_S):
        """The runner's next event, which must be one of `kinds`."""
        try:
            line = _receive(self.child, self.clock, kinds[0], deadline_s)
        except ChildEnded as ended:
            raise RunnerBroke(ended.reason) from None
        try:
            event = decode(RUNNER_EVENTS, line)
        except ProtocolError as exc:
            self._violation(f"a line that is no event ({exc})")
        if isinstance(event, RunnerFailed):
            raise RunnerBroke("failed", event.message)
        if not isinstance(event, kinds):
            self._violation(f"`{event.kind}` where the judge waited for {' or '.join(k.__name__ for k in kinds)}")
        return event

    def _violation(self, what: str):
        try:
            self.child.end("protocol")
        except ChildEnded:
            pass
        raise RunnerBroke("protocol", what)


class OracleLink:
    def __init__(self, child: Child, clock: PhaseClock | None = None):
        self.child, self.clock = child, clock or PhaseClock()

    def send(self, command: Message) -> None:
        self.child.send(encode(command))

    def expect(self, kind: type | tuple[type, ...], deadline_s: float = IDLE_DEADLINE_S):
        try:
            line = _receive(self.child, self.clock, (kind if isinstance(kind, tuple) else (kind,))[0], deadline_s)
            event = decode(ORACLE_EVENTS, line)
        except ChildEnded as ended:
            tail = self.child.output_tail()
            raise OracleBroke(f"the reference process ended ({ended.reason}): {tail[-500:].strip()}") from None
        except ProtocolError as exc:
            raise OracleBroke(f"the reference process sent a bad message: {exc}") from None
        if isinstance(event, OracleFailed):
            raise OracleBroke(f"reference.py failed: {event.message}\n{event.trace[-1500:]}")
        if not isinstance(event, kind):
            due = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
            raise OracleBroke(f"the reference process sent `{event.kind}` where `{due}` was due")
        return event
