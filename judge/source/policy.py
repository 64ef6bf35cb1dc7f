"""Checks that run before any compiler sees the file: size, encoding, and preprocessing directives.

NVRTC and g++ open any path an #include names and echo its lines in their error logs, so every
include is decided here, from directives read the way the preprocessor reads them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from judge.result import Diagnostic
from judge.source.diagnostics import SourceFile
from judge.source.directives import Directive, LogicalLine, directives
from judge.source.headers import HeaderRefused, HeaderUse, header_use

MAX_SOURCE_BYTES = 64 * 1024

_INCLUDE_OPERAND = re.compile(r'^(<([^<>"]*)>|"([^"<>]*)")\s*$')
_HAS_INCLUDE = re.compile(r'__has_include(?:_next)?\s*\(\s*(<[^>]*>|"[^"]*"|[^)\s]*)')
_PRAGMA_DEPENDENCY = re.compile(r"\bGCC\s+dependency\b")


@dataclass(frozen=True)
class IncludeLine:
    line: int               # the lines the #include spans in the user's file
    end_line: int
    header: str
    use: HeaderUse


@dataclass
class DirectiveReport:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    includes: list[IncludeLine] = field(default_factory=list)


def check_bytes(data: bytes, filename: str) -> list[Diagnostic]:
    """Size, NUL bytes and UTF-8, checked on the raw upload."""
    def refuse(message: str, line: int | None = None) -> list[Diagnostic]:
        return [Diagnostic(file=filename, line=line, message=message, stage="policy")]

    if len(data) > MAX_SOURCE_BYTES:
        return refuse(f"the file is {len(data)} bytes; a submission may be at most {MAX_SOURCE_BYTES} bytes (64 KiB)")
    if b"\0" in data:
        return refuse("the file contains a NUL byte; submit a plain text .cu file", data.count(b"\n", 0, data.index(b"\0")) + 1)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return refuse(f"the file is not valid UTF-8 (byte {exc.start} cannot be decoded); save it as UTF-8",
                      data.count(b"\n", 0, exc.start) + 1)
    for token in (b"??=", b"??/"):
        if token in data:
            return refuse(f"trigraph '{token.decode()}' is not supported; write the character it stands for",
                          data.count(b"\n", 0, data.index(token)) + 1)
    return []


def _include_use(directive: Directive) -> tuple[str, HeaderUse]:
    match = _INCLUDE_OPERAND.match(directive.rest)
    if not match:
        raise HeaderRefused(f"#include {directive.rest} is not allowed: name a header directly, "
                            f"as #include <name> (an include computed from a macro is not supported)")
    quoted = match.group(3) is not None
    path = match.group(3) if quoted else match.group(2)
    return path, header_use(path.strip(), quoted)


def check_directives(lines: list[LogicalLine], source: SourceFile) -> DirectiveReport:
    report = DirectiveReport()

    def refuse(line: int, message: str) -> None:
        report.diagnostics.append(source.diagnostic(line, None, message, stage="policy"))

    for directive in directives(lines):
        if directive.name == "include":
            try:
                path, use = _include_use(directive)
            except HeaderRefused as exc:
                refuse(directive.line, str(exc))
            else:
                report.includes.append(IncludeLine(directive.line, directive.end_line, path, use))
        elif directive.name in ("include_next", "import", "embed"):
            refuse(directive.line, f"#{directive.name} is not allowed; use #include <header> with a supported header")
        elif directive.name == "line":
            refuse(directive.line, "#line is not allowed: the judge reports errors at your file's real line numbers")
        elif directive.name == "pragma" and _PRAGMA_DEPENDENCY.search(directive.rest):
            refuse(directive.line, "#pragma GCC dependency is not allowed")
    for logical in lines:
        for match in _HAS_INCLUDE.finditer(logical.text):
            operand = match.group(1)
            try:
                header_use(operand.strip('<>"').strip(), operand.startswith('"'))
            except HeaderRefused:
                refuse(logical.line, f"__has_include({operand}) names a header outside the allowed set")
        if "_Pragma" in logical.text and "dependency" in logical.text:
            refuse(logical.line, "_Pragma(\"GCC dependency ...\") is not allowed")
    return report
