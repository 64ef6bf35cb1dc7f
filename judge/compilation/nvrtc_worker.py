"""Compile one device TU with NVRTC, in a process of its own that the judge can kill at a deadline.

Run as a script (it imports nothing from the judge): reads a JSON request on stdin, writes the
cubin to the requested path and a JSON reply on stdout.

Precompiled headers: NVRTC's PCH file records the address of its PCH heap, so a PCH file can
only be reused by a process whose heap lands at the same address. With address-space layout
randomization off for this process (a Linux personality flag, applied by re-executing) and the
heap reserved before anything else happens, the heap address is the same in every worker, and
a PCH made by one worker serves the next. If the flag cannot be set, PCH is simply not used.
"""
from __future__ import annotations

import ctypes
import json
import os
import sys

_ADDR_NO_RANDOMIZE = 0x0040000
_RELAUNCHED = "--fixed-layout"
PCH_HEAP_BYTES = 1 << 30


def _fixed_layout() -> bool:
    """True once this process runs without address randomization (re-executing if needed)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        current = libc.personality(0xFFFFFFFF)
    except (OSError, AttributeError):
        return False
    if current != -1 and current & _ADDR_NO_RANDOMIZE:
        return True
    if current == -1 or _RELAUNCHED in sys.argv or libc.personality(current | _ADDR_NO_RANDOMIZE) == -1:
        return False
    os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:], _RELAUNCHED])
    return False   # not reached


def _check(result) -> object:
    status = result[0]
    if int(status) != 0:
        raise RuntimeError(f"NVRTC call failed: {status!r}")
    return result[1] if len(result) == 2 else result[1:]


def main() -> int:
    wants_pch = "--pch" in sys.argv
    fixed = _fixed_layout() if wants_pch else False
    from cuda.bindings import nvrtc

    if fixed:
        nvrtc.nvrtcSetPCHHeapSize(PCH_HEAP_BYTES)   # before any other allocation that could move it
    request = json.loads(sys.stdin.read())
    log_cap = int(request["log_cap"])
    options = list(request["options"])
    pch = request.get("pch") if fixed else None
    if pch:
        if os.path.exists(pch["path"]):
            options.append(f"--use-pch={pch['path']}")
        else:
            options.append(f"--create-pch={pch['scratch']}")
    with open(request["source_path"], "rb") as handle:
        source = handle.read()

    program = _check(nvrtc.nvrtcCreateProgram(source, request["name"].encode(), 0, [], []))
    for expression in request["name_expressions"]:
        _check(nvrtc.nvrtcAddNameExpression(program, expression.encode()))
    status = nvrtc.nvrtcCompileProgram(program, len(options), [o.encode() for o in options])[0]
    size = _check(nvrtc.nvrtcGetProgramLogSize(program))
    log = b" " * size
    _check(nvrtc.nvrtcGetProgramLog(program, log))
    log = log.rstrip(b"\0").decode("utf-8", errors="replace")
    if len(log) > log_cap:
        log = log[:log_cap] + f"\n[log truncated at {log_cap} bytes]"

    reply = {"ok": int(status) == 0, "log": log, "lowered": {}, "pch": None,
             "version": list(_check(nvrtc.nvrtcVersion()))}
    if pch:
        if any(o.startswith("--use-pch") for o in options):
            reply["pch"] = "incompatible" if "#20282" in log else "used"
        elif int(nvrtc.nvrtcGetPCHCreateStatus(program)[0]) == 0 and os.path.exists(pch["scratch"]):
            os.replace(pch["scratch"], pch["path"])
            reply["pch"] = "created"
        else:
            reply["pch"] = "not created"
            if os.path.exists(pch["scratch"]):
                os.remove(pch["scratch"])
    if reply["ok"]:
        for expression in request["name_expressions"]:
            reply["lowered"][expression] = _check(nvrtc.nvrtcGetLoweredName(program, expression.encode())).decode()
        size = _check(nvrtc.nvrtcGetCUBINSize(program))
        cubin = b" " * size
        _check(nvrtc.nvrtcGetCUBIN(program, cubin))
        with open(request["cubin_path"], "wb") as handle:
            handle.write(cubin)
    nvrtc.nvrtcDestroyProgram(program)
    json.dump(reply, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
