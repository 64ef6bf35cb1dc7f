"""Preprocessing directives as the compilers see them: after line splicing and comment removal.

Tree-sitter reads the raw text, so `#\\<newline>include "x"` or `/* */ #include "x"` or the
digraph `%:include "x"` escape it; the include policy therefore reads directives from here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_RAW_STRING_START = re.compile(rb'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(')
_DIRECTIVE = re.compile(r"^\s*(?:#|%:)\s*([A-Za-z_]\w*)?(.*)$", re.S)


@dataclass(frozen=True)
class LogicalLine:
    line: int        # 1-based physical line where it starts
    end_line: int    # physical line where it ends (after backslash-newlines and multi-line comments)
    text: str        # spliced, comments replaced by one space, string contents kept


@dataclass(frozen=True)
class Directive:
    line: int
    end_line: int
    name: str        # "include", "define", "line", "pragma", ... ("" for a null directive)
    rest: str        # everything after the name, stripped


def logical_lines(source: bytes) -> list[LogicalLine]:
    """Split into logical lines: backslash-newline spliced, comments blanked, literals kept."""
    lines: list[LogicalLine] = []
    out = bytearray()
    line, start_line = 1, 1
    i, n = 0, len(source)
    state = "code"          # code | line_comment | block_comment | string | char | raw
    raw_end = b""

    def finish() -> None:
        lines.append(LogicalLine(start_line, line, out.decode("utf-8", errors="replace")))
        out.clear()

    while i < n:
        c = source[i:i + 1]
        if c == b"\\" and state != "raw" and source[i + 1:i + 2] in (b"\n", b"\r"):
            i += 3 if source[i + 1:i + 3] == b"\r\n" else 2
            line += 1
            continue
        if c == b"\n":
            if state in ("block_comment", "raw"):
                out += c if state == "raw" else b""
                line += 1
                i += 1
                continue
            state = "code"
            finish()
            line += 1
            start_line = line
            i += 1
            continue
        if state == "code":
            raw = _RAW_STRING_START.match(source, i) if c in b"uULR" else None
            if raw and (i == 0 or not (source[i - 1:i].isalnum() or source[i - 1:i] == b"_")):
                state, raw_end = "raw", b")" + raw.group(1) + b'"'
                out += raw.group(0)
                i = raw.end()
                continue
            if source[i:i + 2] == b"//":
                state = "line_comment"
                out += b" "
                i += 2
                continue
            if source[i:i + 2] == b"/*":
                state = "block_comment"
                out += b" "
                i += 2
                continue
            if c == b'"':
                state = "string"
            elif c == b"'":
                state = "char"
            out += c
            i += 1
        elif state in ("string", "char"):
            out += c
            if c == b"\\" and i + 1 < n:
                out += source[i + 1:i + 2]
                i += 2
                continue
            if c == (b'"' if state == "string" else b"'"):
                state = "code"
            i += 1
        elif state == "raw":
            if source.startswith(raw_end, i):
                out += raw_end
                i += len(raw_end)
                state = "code"
            else:
                out += c
                i += 1
        elif state == "block_comment":
            if source[i:i + 2] == b"*/":
                state = "code"
                i += 2
            else:
                i += 1
        else:  # line comment
            i += 1
    if out or not lines:
        finish()
    return lines


def directives(lines: list[LogicalLine]) -> list[Directive]:
    found = []
    for logical in lines:
        match = _DIRECTIVE.match(logical.text)
        if match:
            found.append(Directive(logical.line, logical.end_line, match.group(1) or "", match.group(2).strip()))
    return found
