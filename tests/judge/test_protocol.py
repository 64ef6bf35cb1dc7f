"""The channels' messages: each kind decodes to its model, and anything else is a ProtocolError
with a short reason (never a traceback in a judge)."""
from __future__ import annotations

import pytest

from judge import protocol
from judge.protocol import (ORACLE_EVENTS, PROGRESS, RUNNER_COMMANDS, RUNNER_EVENTS, Call, CallError, Place, ProtocolError,
                            Ready, Returned, decode, encode)
from judge.exchange import layout
from judge import result


def test_messages_round_trip_through_their_channel():
    place = Place(test="t", buffers=layout([("input", 40), ("output", 40)]))
    assert decode(RUNNER_COMMANDS, encode(place)) == place
    call = Call(test="t", schedule="forward", scalars={"N": 10})
    assert decode(RUNNER_COMMANDS, encode(call)) == call
    returned = Returned(test="t", error=CallError(verdict="RE", message="illegal address"))
    assert decode(RUNNER_EVENTS, encode(returned)) == returned
    done = protocol.TestDone(result=result.TestResult(name="t", size={"N": 1}, distribution="uniform", verdict="AC"))
    assert decode(PROGRESS, encode(done)) == done


@pytest.mark.parametrize("line", [
    b"not json",
    b'{"event": "test", "token": "stolen", "result": {"verdict": "AC"}}',   # the old event format
    b'{"kind": "returned"}',                                                 # no test named
    b'{"kind": "ready", "device": "x", "schedules": [], "seccomp": true}',   # no schedule
    b'{"kind": "returned", "test": "t", "surprise": 1}',                     # a field no message has
    b'{"kind": "checked", "request": 0, "mismatches": 0, "total": 1}',       # an oracle's event, not a runner's
])
def test_anything_else_is_a_protocol_error(line):
    with pytest.raises(ProtocolError):
        decode(RUNNER_EVENTS, line)


def test_each_channel_knows_only_its_own_kinds():
    ready = encode(Ready(device="d", schedules=["device"], seccomp=True))
    with pytest.raises(ProtocolError):
        decode(ORACLE_EVENTS, ready)
