"""Diagnostics in the user's terms: compiler logs parsed and mapped back to the user's file.

Both translation units keep the user's line numbers; `TuMap` carries the few column shifts
that in-line rewrites make. Messages located in headers (CUB, the judge's runtime, the C++
library) are re-anchored at the user's line that led there, with the header named briefly.
"""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from typing import Callable

from judge.result import Diagnostic
from judge.source.program import analyze

MAX_DIAGNOSTICS = 50

Position = tuple[int, int]   # 1-based line, 1-based byte column


class SourceFile:
    """The user's file: its name and lines, for diagnostics with the source line shown."""

    def __init__(self, text: str, filename: str):
        self.filename = filename
        self.lines = text.splitlines()

    def line_text(self, line: int | None) -> str | None:
        if line is None or not 1 <= line <= len(self.lines):
            return None
        return self.lines[line - 1]

    def diagnostic(self, line: int | None, byte_column: int | None, message: str, *, stage: str,
                   severity: str = "error") -> Diagnostic:
        """A diagnostic at a 1-based line and byte column (shown as a character column)."""
        text = self.line_text(line)
        column = byte_column_to_char(text, byte_column) if text is not None and byte_column else None
        return Diagnostic(severity=severity, file=self.filename, line=line, column=column, message=message,
                          source_line=text, stage=stage)


def byte_column_to_char(line_text: str, byte_column: int) -> int:
    """1-based character column of a 1-based byte column in a line."""
    return len(line_text.encode("utf-8")[:byte_column - 1].decode("utf-8", errors="ignore")) + 1


def render(diagnostics: list[Diagnostic]) -> str:
    """The diagnostics as a compiler-style log: file:line:col: severity: message."""
    out = []
    for d in diagnostics:
        where = d.file + (f":{d.line}" if d.line else "") + (f":{d.column}" if d.line and d.column else "")
        out.append(f"{where}: {d.severity}: {d.message}")
        if d.source_line is not None:
            out.append(f"  {d.source_line}")
            if d.column:
                out.append("  " + " " * (d.column - 1) + "^")
    return "\n".join(out)


@dataclass(frozen=True)
class TuMap:
    """How to read a compiler's view of one translation unit."""
    names: tuple[str, ...]                      # how the compiler names the TU file
    to_user: Callable[[int, int], Position]     # TU (line, byte column) -> user's (line, byte column)
    header_roots: tuple[str, ...]               # include directories, shortened to <header> in messages


def _short_header(path: str, roots: tuple[str, ...]) -> str:
    for root in sorted(roots, key=len, reverse=True):
        if path.startswith(root.rstrip("/") + "/"):
            return "<" + path[len(root.rstrip("/")) + 1:] + ">"
    return "<" + path.rsplit("/", 1)[-1] + ">"


_CCCL_INLINE_NAMESPACE = re.compile(r"::_V_\d+_SM_\d+(?=::)")


def _scrub(message: str, roots: tuple[str, ...]) -> str:
    """Shorten internal paths and CUB's versioned inline namespace in a message."""
    for root in sorted(roots, key=len, reverse=True):
        message = message.replace(root.rstrip("/") + "/", "")
    return _CCCL_INLINE_NAMESPACE.sub("", message)


class _Collector:
    """Gathers mapped diagnostics, dropping repeats and stopping at MAX_DIAGNOSTICS."""

    def __init__(self, source: SourceFile, stage: str):
        self.source = source
        self.stage = stage
        self.items: list[Diagnostic] = []
        self._seen: set[tuple] = set()

    def add(self, severity: str, position: Position | None, message: str) -> bool:
        """Add unless a repeat; later errors on a line that already has one are cascades. True if added."""
        line, column = position if position else (None, None)
        key = (severity, line, None if severity == "error" and line is not None else message)
        if key in self._seen or len(self.items) >= MAX_DIAGNOSTICS:
            return False
        self._seen.add(key)
        self.items.append(self.source.diagnostic(line, column, message, stage=self.stage, severity=severity))
        return True


# --- g++ -------------------------------------------------------------------------------------

_GCC_FLAG_HINT = re.compile(r"\s*\[-f[\w-]+\]$")   # "[-fpermissive]": a flag the learner cannot pass
_GCC_LINE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?:(?P<sev>fatal error|error|warning|note): )?(?P<msg>.*)$")


def parse_gcc_log(log: str, tu: TuMap, source: SourceFile, stage: str = "host") -> list[Diagnostic]:
    collector = _Collector(source, stage)
    context: Position | None = None      # the user's line an instantiation or macro chain started from
    pending: tuple[str, str] | None = None   # a header-located primary waiting for a user location
    kept = True                          # whether the last primary was shown: its notes follow it
    for raw in log.splitlines():
        match = _GCC_LINE.match(raw)
        if not match:
            continue
        in_tu = match["file"] in tu.names
        position = tu.to_user(int(match["line"]), int(match["col"])) if in_tu else None
        severity = match["sev"]
        message = _GCC_FLAG_HINT.sub("", _scrub(match["msg"].strip(), tu.header_roots))
        if severity in ("error", "fatal error", "warning"):
            if pending:
                collector.add(pending[0], context, pending[1])
            severity = "warning" if severity == "warning" else "error"
            if in_tu:
                kept = collector.add(severity, position, message)
                pending = None
            else:
                where = _short_header(match["file"], tu.header_roots)
                pending = (severity, f"{message} (in {where}, line {match['line']})")
            continue
        # context lines ("required from here", "in expansion of macro") and notes
        if in_tu:
            if pending:
                collector.add(pending[0], position, pending[1])
                pending = None
            elif severity == "note" and kept and not message.startswith(("in expansion of macro", "in definition of macro")):
                collector.add("note", position, message)
            context = position
    if pending:
        collector.add(pending[0], context, pending[1])
    return collector.items


# --- NVRTC -----------------------------------------------------------------------------------

_NVRTC_LINE = re.compile(r"^(?P<file>.+?)\((?P<line>\d+)\): (?P<sev>catastrophic error|error|warning|remark|note)"
                         r"(?: #(?P<code>\d+)(?:-D)?)?: (?P<msg>.*)$")
_NVRTC_BARE = re.compile(r"^(?:At end of source: )?(?P<sev>Catastrophic error|Error|Warning|catastrophic error|error|warning)"
                         r"(?: #(?P<code>\d+)(?:-D)?)?: (?P<msg>.*)$")
_NVRTC_INSTANTIATION = re.compile(r"at line (?P<line>\d+) of (?P<file>.+?)\s*$")

# NVRTC's own notices about precompiled headers: the judge manages those itself.
_PCH_CODES = {"20282", "20283", "639"}
# "incompatible redefinition of macro": older CCCL headers define the compiler macros the judge's
# cudajudge_nvcc_names.h gives NVRTC (same values, other spellings); the user did nothing.
_MACRO_REDEFINED = "47"
_JUDGE_MACROS = "cudajudge_nvcc_names.h"


def _caret_column(block: list[str]) -> int | None:
    """EDG prints the offending line indented by two spaces, then a caret line under it."""
    for index, row in enumerate(block[1:], start=1):
        if row.strip() == "^":
            return row.index("^") - 1
    return None


def parse_nvrtc_log(log: str, tu: TuMap, source: SourceFile, tu_lines: list[str], stage: str = "device") -> list[Diagnostic]:
    """NVRTC/EDG log -> diagnostics. tu_lines: the device TU's lines, to turn caret positions into bytes."""
    collector = _Collector(source, stage)
    rows = log.splitlines()
    starts = [i for i, row in enumerate(rows) if _NVRTC_LINE.match(row) or _NVRTC_BARE.match(row)]
    for n, start in enumerate(starts):
        block = rows[start:starts[n + 1] if n + 1 < len(starts) else len(rows)]
        head = _NVRTC_LINE.match(block[0])
        if head is None:
            bare = _NVRTC_BARE.match(block[0])
            if bare["code"] not in _PCH_CODES:
                end = "at the end of the file: " if block[0].startswith("At end of source") else ""
                collector.add("warning" if bare["sev"].lower() == "warning" else "error", None,
                              end + _scrub(bare["msg"], tu.header_roots))
            continue
        if head["code"] in _PCH_CODES or (head["code"] == _MACRO_REDEFINED and _JUDGE_MACROS in head["msg"]):
            continue
        severity = {"catastrophic error": "error", "remark": "note"}.get(head["sev"], head["sev"])
        message = _scrub(head["msg"].strip(), tu.header_roots)
        if head["file"] in tu.names:
            line = int(head["line"])
            caret = _caret_column(block)
            byte_column = None
            if caret is not None and 1 <= line <= len(tu_lines):
                byte_column = len(tu_lines[line - 1][:max(caret, 0)].encode("utf-8")) + 1
            collector.add(severity, tu.to_user(line, byte_column or 1) if byte_column else (tu.to_user(line, 1)[0], None),
                          message)
            continue
        where = _short_header(head["file"], tu.header_roots)
        anchor = None
        for row in block[1:]:
            found = _NVRTC_INSTANTIATION.search(row)
            if found and found["file"] in tu.names:
                anchor = (tu.to_user(int(found["line"]), 1)[0], None)
                break
        if anchor is None and severity == "note":
            continue   # a header's candidate list with no line of the user's to show it at
        collector.add(severity, anchor, f"{message} (in {where}, line {head['line']})")
    return collector.items


# --- the linker ------------------------------------------------------------------------------

# The host linker's complaints, and ptxas's when device code calls a function nothing defines.
_LINK_PROBLEM = re.compile(r"(undefined reference to|multiple definition of|Unresolved extern function) [`'](?P<symbol>[^`']+)'")


def _demangled(symbol: str) -> str:
    if not symbol.startswith("_Z"):
        return symbol
    try:
        out = subprocess.run(["c++filt", symbol], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return symbol
    return out or symbol


def _function_name(signature: str) -> str:
    """'ns::at<int>(float const*, int)' -> 'at'."""
    name = signature.split("(", 1)[0]
    depth, plain = 0, ""
    for ch in name:
        depth += ch == "<"
        if depth == 0:
            plain += ch
        depth -= ch == ">"
    return plain.rsplit("::", 1)[-1].strip()


def parse_link_log(log: str, source: SourceFile, stage: str = "host") -> list[Diagnostic]:
    """Link errors, placed at the declaration of the function that has no definition where one exists."""
    program = None
    collector = _Collector(source, stage)
    for match in _LINK_PROBLEM.finditer(log):
        symbol = _demangled(match["symbol"])
        if match.group(1).startswith("multiple"):
            collector.add("error", None, f"'{symbol}' is defined more than once")
            continue
        program = program or analyze("\n".join(source.lines).encode("utf-8"))
        name = _function_name(symbol)
        declared = next((f for f in program.named(name) if f.body is None), None)
        if declared is not None:
            collector.add("error", (declared.line, None), f"'{name}' is declared on line {declared.line} but never defined: "
                                                          f"give it a body, or do not call it")
        else:
            collector.add("error", None, f"'{symbol}' is called but never defined (a declared function without a "
                                         f"body, or device code called from the host)")
    return collector.items
