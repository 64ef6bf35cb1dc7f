"""Tree-sitter parsing of CUDA sources, and byte-level edits that keep line numbers.

Everything here works on UTF-8 bytes, the unit tree-sitter reports positions in.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

import tree_sitter_cuda
from tree_sitter import Language, Node, Parser, Tree

# A macro body is parsed as the body of a function, so statements and expressions both parse.
_MACRO_PREFIX = b"void cudajudge_macro_body() {\n"
_MACRO_SUFFIX = b"\n;}"


@lru_cache(maxsize=1)
def _parser() -> Parser:
    return Parser(Language(tree_sitter_cuda.language()))


def parse(source: bytes) -> Tree:
    return _parser().parse(source)


def text(node: Node) -> str:
    return node.text.decode("utf-8", errors="replace")


def walk(node: Node) -> Iterator[Node]:
    """Every node below `node` (itself included), in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def line_of(node: Node) -> int:
    """1-based line of a node's first byte."""
    return node.start_point.row + 1


@dataclass(frozen=True)
class Fragment:
    """A parsed piece of the file: the file itself, or the body of one #define.

    Positions of nodes inside a macro body are relative to that body's own parse;
    `byte_offset` maps them back into the file and `line` names the #define's line.
    """
    root: Node
    byte_offset: int      # add to a node's byte position to get its position in the file
    line: int | None      # the #define's line for macro bodies, None for the file itself

    @property
    def in_macro(self) -> bool:
        return self.line is not None

    def file_line(self, node: Node) -> int:
        return self.line if self.line is not None else line_of(node)

    def span(self, node: Node) -> tuple[int, int]:
        return node.start_byte + self.byte_offset, node.end_byte + self.byte_offset


def fragments(tree: Tree) -> list[Fragment]:
    """The file and the bodies of its macros, each parsed as code."""
    found = [Fragment(tree.root_node, 0, None)]
    for node in walk(tree.root_node):
        if node.type in ("preproc_def", "preproc_function_def"):
            body = node.child_by_field_name("value")
            if body is not None:
                wrapped = parse(_MACRO_PREFIX + body.text + _MACRO_SUFFIX)
                found.append(Fragment(wrapped.root_node, body.start_byte - len(_MACRO_PREFIX), line_of(body)))
    return found


@dataclass(frozen=True)
class Edit:
    start: int          # byte range of the file that is replaced
    end: int
    replacement: bytes


class EditedText:
    """The result of applying edits, with a map from its positions back to the original's."""

    def __init__(self, source: bytes, edits: list[Edit]):
        out: list[bytes] = []
        # (output start, output end, source start, source end) of every copied or replaced piece
        self._pieces: list[tuple[int, int, int, int]] = []
        position = written = 0
        for edit in sorted(edits, key=lambda e: (e.start, -e.end)):
            if edit.start < position:
                continue   # inside a range an earlier edit already replaced
            for chunk, src_start, src_end in ((source[position:edit.start], position, edit.start),
                                              (edit.replacement, edit.start, edit.end)):
                out.append(chunk)
                self._pieces.append((written, written + len(chunk), src_start, src_end))
                written += len(chunk)
            position = edit.end
        out.append(source[position:])
        self._pieces.append((written, written + len(source) - position, position, len(source)))
        self.text = b"".join(out)
        self._out_lines = line_starts(self.text)
        self._source_lines = line_starts(source)

    def source_position(self, line: int, column: int) -> tuple[int, int]:
        """1-based (line, byte column) in the edited text -> the same in the original."""
        line = min(max(line, 1), len(self._out_lines))
        offset = self._out_lines[line - 1] + max(column, 1) - 1
        starts = [p[0] for p in self._pieces]
        out_start, out_end, src_start, src_end = self._pieces[max(bisect_right(starts, offset) - 1, 0)]
        same_length = out_end - out_start == src_end - src_start
        src = src_start + (offset - out_start if same_length else 0)
        src_line = bisect_right(self._source_lines, src)
        return src_line, src - self._source_lines[src_line - 1] + 1


def c_string_literal(value: str) -> str:
    """`value` as a C++ string literal, for text the judge writes into code it compiles."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def line_starts(data: bytes) -> list[int]:
    return [0] + [m.end() for m in re.finditer(b"\n", data)]


def apply_edits(source: bytes, edits: list[Edit]) -> bytes:
    """Apply non-overlapping edits; an edit inside a range another edit replaces is dropped."""
    return EditedText(source, edits).text


def blanked(source: bytes, start: int, end: int) -> bytes:
    """The bytes of source[start:end] with everything but line breaks turned into spaces."""
    return bytes(c if c in b"\r\n" else 0x20 for c in source[start:end])


def blank(source: bytes, start: int, end: int) -> Edit:
    return Edit(start, end, blanked(source, start, end))


def syntax_errors(root: Node) -> list[tuple[int, int, str]]:
    """(line, column, message) for each ERROR or MISSING node, 1-based."""
    errors = []
    for node in walk(root):
        if node.is_missing:
            errors.append((node.start_point.row + 1, node.start_point.column + 1, f"expected '{node.type}'"))
        elif node.type == "ERROR":
            snippet = text(node).strip().splitlines()[0][:40] if text(node).strip() else ""
            errors.append((node.start_point.row + 1, node.start_point.column + 1,
                           f"syntax error near '{snippet}'" if snippet else "syntax error"))
    return errors
