"""Preprocessing directives as the compilers see them: after line splicing and comment removal.

Tree-sitter reads the raw text, so `#\\<newline>include "x"` or `/* */ #include "x"` or the
digraph `%:include "x"` escape it; the include policy therefore reads directives from here. Splicing
comes first, so a comment may open or close across a backslash-newline.
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
    return _Scanner(source).scan()


class _Scanner:
    """One pass over the bytes; `state` is what the byte at `i` is part of."""

    def __init__(self, source: bytes):
        self.source = source
        self.i = 0
        self.line = self.start_line = 1
        self.state = "code"      # code | line_comment | block_comment | string | char | raw
        self.raw_end = b""       # the raw string's closing `)delimiter"`
        self.out = bytearray()
        self.lines: list[LogicalLine] = []
        self.step = {"code": self._code, "string": self._quoted, "char": self._quoted, "raw": self._raw,
                     "block_comment": self._block_comment, "line_comment": self._line_comment}

    def scan(self) -> list[LogicalLine]:
        while self.i < len(self.source):
            c = self.source[self.i:self.i + 1]
            if c == b"\\" and self._splice():
                continue
            if c == b"\n":
                self._newline()
            else:
                self.step[self.state](c)
        if self.out or not self.lines:
            self._finish()
        return self.lines

    def _finish(self) -> None:
        self.lines.append(LogicalLine(self.start_line, self.line, self.out.decode("utf-8", errors="replace")))
        self.out.clear()

    def _splice(self) -> bool:
        """Skip the backslash at `i` and its newline (anywhere but in a raw string); True if it was one."""
        after = self.source[self.i + 1:self.i + 3]
        if self.state == "raw" or after[:1] not in (b"\n", b"\r"):
            return False
        self.i += 3 if after == b"\r\n" else 2
        self.line += 1
        return True

    def _newline(self) -> None:
        """A newline ends the logical line, except inside a block comment or a raw string."""
        self.i += 1
        if self.state in ("block_comment", "raw"):
            if self.state == "raw":
                self.out += b"\n"
            self.line += 1
            return
        self.state = "code"
        self._finish()
        self.line += 1
        self.start_line = self.line

    def _after_splices(self) -> tuple[bytes, int, int]:
        """The byte that follows the one at `i` once backslash-newlines are spliced (`/\\<newline>*`
        opens a comment, `*\\<newline>/` closes one): (that byte, its index, the newlines spliced)."""
        j, spliced = self.i + 1, 0
        while self.source[j:j + 1] == b"\\" and self.source[j + 1:j + 2] in (b"\n", b"\r"):
            j += 3 if self.source[j + 1:j + 3] == b"\r\n" else 2
            spliced += 1
        return self.source[j:j + 1], j, spliced

    def _take_pair(self, second: int, spliced: int) -> None:
        """Move past a two-byte token whose second byte is at `second`."""
        self.i = second + 1
        self.line += spliced

    def _code(self, c: bytes) -> None:
        if self._raw_string_start(c):
            return
        if c == b"/":
            after, at, spliced = self._after_splices()
            if after in (b"/", b"*"):
                self.state = "line_comment" if after == b"/" else "block_comment"
                self.out += b" "
                self._take_pair(at, spliced)
                return
        if c == b'"':
            self.state = "string"
        elif c == b"'":
            self.state = "char"
        self.out += c
        self.i += 1

    def _raw_string_start(self, c: bytes) -> bool:
        """Enter a raw string at `i` if one starts there (its prefix not the tail of an identifier)."""
        i = self.i
        raw = _RAW_STRING_START.match(self.source, i) if c in b"uULR" else None
        before = self.source[i - 1:i]
        if not raw or (i > 0 and (before.isalnum() or before == b"_")):
            return False
        self.state, self.raw_end = "raw", b")" + raw.group(1) + b'"'
        self.out += raw.group(0)
        self.i = raw.end()
        return True

    def _quoted(self, c: bytes) -> None:
        """Inside "..." or '...': an escape takes the next byte along, so it cannot close the literal."""
        self.out += c
        if c == b"\\" and self.i + 1 < len(self.source):
            after, at, spliced = self._after_splices()
            self.out += after
            self._take_pair(at, spliced)
            return
        if c == (b'"' if self.state == "string" else b"'"):
            self.state = "code"
        self.i += 1

    def _raw(self, c: bytes) -> None:
        if self.source.startswith(self.raw_end, self.i):
            self.out += self.raw_end
            self.i += len(self.raw_end)
            self.state = "code"
        else:
            self.out += c
            self.i += 1

    def _block_comment(self, c: bytes) -> None:
        if c == b"*":
            after, at, spliced = self._after_splices()
            if after == b"/":
                self.state = "code"
                self._take_pair(at, spliced)
                return
        self.i += 1

    def _line_comment(self, c: bytes) -> None:
        self.i += 1


def directives(lines: list[LogicalLine]) -> list[Directive]:
    found = []
    for logical in lines:
        match = _DIRECTIVE.match(logical.text)
        if match:
            found.append(Directive(logical.line, logical.end_line, match.group(1) or "", match.group(2).strip()))
    return found
