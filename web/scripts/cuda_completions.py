"""Writes web/src/cuda-completions.json, the editor's completion list for CUDA, from what the judge itself
provides: the CPU runtime's headers (built-in variables, qualifiers, intrinsics, barriers and warp
primitives, atomics) and the CUDA runtime calls the judge supports (judge/source/runtime_calls.py).
Run it after changing either; tests/web/test_cuda_completions.py fails while the committed list is stale.

    python web/scripts/cuda_completions.py
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from judge.source.runtime_calls import SUPPORTED_RUNTIME_CALLS  # noqa: E402

RUNTIME = REPO / "judge" / "runtime"
CPU = RUNTIME / "cpu" / "cudajudge"
OUTPUT = REPO / "web" / "src" / "cuda-completions.json"
# Which header holds which group of device functions (the group names the entry's detail in the editor).
FUNCTION_HEADERS = {"sync": [CPU / "sync.h"], "atomic": [CPU / "atomics.h"],
                    "intrinsic": [CPU / "intrinsics.h", RUNTIME / "cudajudge_min_max.h"]}
# The runtime's enums whose values a solve() passes (cudaMemcpy's kind, cudaFuncSetAttribute's attribute).
RUNTIME_ENUMS = ("cudaMemcpyKind", "cudaFuncAttribute")

_MACRO = re.compile(r"^#define (\w+)(?:\(([^)]*)\))?((?:[^\n]*\\\n)*[^\n]*)", re.M)
_NAMESPACE = re.compile(r"^namespace ([\w:]+) \{.*?^\}\s*// namespace \1\b", re.M | re.S)
_FUNCTION = re.compile(r"\binline\s+(?:constexpr\s+)?[^;{}()=]*?(?<!#)\b(\w+)\s*\(")


def _macros(text: str) -> list[tuple[str, list[str] | None, str]]:
    return [(m[1], [p.strip() for p in m[2].split(",")] if m[2] is not None else None, m[3])
            for m in _MACRO.finditer(text)]


def _functions(path: Path) -> set[str]:
    """The functions a header declares at global scope, with those its function-like macros generate."""
    text = _NAMESPACE.sub("", path.read_text())
    macros = _macros(text)
    names = set(_FUNCTION.findall(_MACRO.sub("", text)))
    for macro, params, body in macros:
        if not params:
            continue
        for call in re.findall(rf"^{macro}\(([^)]*)\)", text, re.M):
            args = dict(zip(params, (a.strip() for a in call.split(","))))
            for name in _FUNCTION.findall(body):
                names.add(args.get(name, name))
            for param, suffix in re.findall(r"\b(\w+)##(\w+)", body):
                names.add(args[param] + suffix)
    # Aliases such as `#define atomicAdd_block atomicAdd`.
    names |= {name for name, params, body in macros if params is None and body.strip() in names}
    return names


def _enumerators(enum: str) -> list[str]:
    body = re.search(rf"enum {enum} \{{(.*?)\}}", (RUNTIME / "cudajudge_runtime_types.h").read_text(), re.S)
    return re.findall(r"^\s*(\w+)\s*=", body.group(1), re.M)


def completions() -> list[dict[str, str]]:
    """Each entry: label, CodeMirror's type (its icon) and group."""
    builtins = (CPU / "builtin_vars.h").read_text()
    entries = [{"label": n, "type": "variable", "group": "builtin"}
               for n in re.findall(r"^#define (\w+) \(", builtins, re.M)
               + re.findall(r"^inline constexpr \w+ (\w+) =", builtins, re.M)]
    entries += [{"label": n, "type": "keyword", "group": "qualifier"}
                for n in re.findall(r"^#define (__\w+__)\b", (CPU / "qualifiers.h").read_text(), re.M)]
    for group, headers in FUNCTION_HEADERS.items():
        entries += [{"label": n, "type": "function", "group": group}
                    for n in sorted(set().union(*map(_functions, headers)))]
    entries += [{"label": n, "type": "function", "group": "runtime"} for n in SUPPORTED_RUNTIME_CALLS]
    entries += [{"label": n, "type": "constant", "group": "runtime"}
                for n in ["cudaSuccess", *(v for e in RUNTIME_ENUMS for v in _enumerators(e))]]
    return entries


def render() -> str:
    return "[\n" + ",\n".join(json.dumps(entry) for entry in completions()) + "\n]\n"   # one entry a line


if __name__ == "__main__":
    OUTPUT.write_text(render())
    print(f"wrote {OUTPUT.relative_to(REPO)}: {len(completions())} completions")
