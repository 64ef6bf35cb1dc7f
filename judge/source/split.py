"""Writing the device and host translation units, both with the user's line numbers.

Device TU (NVRTC): host-only code blanked, standard headers mapped to libcu++ or blanked.
Host TU (g++ against the judge's runtime headers): device-only code blanked, every kernel body
replaced by a stub that hands its arguments' addresses to the launcher, every launch rewritten
as `cudajudge::launch(...)(args)`, and a table of the launched kernels' host addresses and the
judge's entry point appended after the last line (the lowered names that go with the addresses
are linked in once NVRTC has run).
"""
from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from judge.source.directives import LogicalLine
from judge.source.kernels import KernelRef
from judge.source.launches import LaunchSite, launch_edits
from judge.source.policy import IncludeLine
from judge.source.program import Function, Program, Space
from judge.source.syntax import Edit, EditedText, blank, line_starts, text

KERNEL_ADDRESS_TABLE = "cudajudge_kernel_addresses"


@dataclass(frozen=True)
class TranslationUnits:
    device: EditedText
    host: EditedText
    pch_headers: tuple[str, ...]   # heavy CUDA headers the file opens with: the device TU's precompiled prefix


class _Lines:
    def __init__(self, source: bytes):
        self.source = source
        self.starts = line_starts(source)

    def span(self, first: int, last: int) -> tuple[int, int]:
        """Byte range of physical lines first..last (1-based), line breaks excluded at the end."""
        start = self.starts[first - 1]
        end = self.starts[last] - 1 if last < len(self.starts) else len(self.source)
        return start, end


def _include_edits(lines: _Lines, includes: list[IncludeLine], device: bool) -> list[Edit]:
    edits = []
    for include in includes:
        start, end = lines.span(include.line, include.end_line)
        target = include.use.device if device else include.use.host
        if target is None:
            edits.append(blank(lines.source, start, end))
        elif target != include.header:
            replacement = f"#include <{target}>".encode()
            edits.append(Edit(start, end, replacement + b" " * max(0, end - start - len(replacement))))
    return edits


def _parameter_name(param: Node) -> Node | None:
    declarator = param.child_by_field_name("declarator")
    while declarator is not None:
        if declarator.type == "identifier":
            return declarator
        inner = declarator.child_by_field_name("declarator")
        if inner is None:
            inner = next((c for c in declarator.named_children if c.type == "identifier"), None)
        declarator = inner
    return None


def _stub_edits(kernel: Function, source: bytes) -> list[Edit]:
    """The kernel's body becomes one line that passes its arguments' addresses to the launcher."""
    edits, addresses = [], []
    params = [p for p in kernel.parameters.named_children if p.type != "comment"]
    if len(params) == 1 and text(params[0]).strip() == "void":
        params = []
    for index, param in enumerate(params):
        name = _parameter_name(param)
        pack = "..." if param.type == "variadic_parameter_declaration" else ""
        if name is None:
            label = f"cudajudge_arg{index}"
            edits.append(Edit(param.end_byte, param.end_byte, f" {label}".encode()))
        else:
            label = text(name)
        addresses.append(f"(void*)&{label}{pack}")
    body = kernel.body
    stub = "{ cudajudge::launch_pending({" + ", ".join(addresses) + "}); }"
    line_breaks = source.count(b"\n", body.start_byte, body.end_byte)
    edits.append(Edit(body.start_byte, body.end_byte, stub.encode() + b"\n" * line_breaks))
    return edits


def _kernel_table(refs: list[KernelRef]) -> bytes:
    entries = "".join(f"  reinterpret_cast<const void*>(&{ref.expression}),\n" for ref in refs)
    return (f"\n// The kernels host code may launch, in the order of the judge's kernel table.\n"
            f'extern "C" const void* const {KERNEL_ADDRESS_TABLE}[] = {{\n{entries}  nullptr\n}};\n').encode()


def _pch_headers(lines: list[LogicalLine], includes: list[IncludeLine]) -> tuple[str, ...]:
    """The device headers of the includes that open the file, before any other directive or code."""
    by_line = {i.line: i for i in includes}
    leading: list[IncludeLine] = []
    for logical in lines:
        if not logical.text.strip():
            continue
        include = by_line.get(logical.line)
        if include is None:
            break
        leading.append(include)
    if not any(i.use.heavy for i in leading):
        return ()
    return tuple(dict.fromkeys(i.use.device for i in leading if i.use.device))


def split(program: Program, logical: list[LogicalLine], includes: list[IncludeLine],
          launches: list[LaunchSite], refs: list[KernelRef], entry: str) -> TranslationUnits:
    source = program.source
    lines = _Lines(source)

    device_edits = _include_edits(lines, includes, device=True)
    device_edits += [blank(source, i.node.start_byte, i.node.end_byte) for i in program.items if i.space is Space.HOST]

    host_edits = _include_edits(lines, includes, device=False)
    host_edits += [blank(source, i.node.start_byte, i.node.end_byte) for i in program.items if i.space is Space.DEVICE]
    for kernel in program.kernels:
        host_edits += _stub_edits(kernel, source)
    host_edits += launch_edits(launches)
    host_edits.append(Edit(len(source), len(source), _kernel_table(refs) + entry.encode()))

    return TranslationUnits(EditedText(source, device_edits), EditedText(source, host_edits),
                            _pch_headers(logical, includes))
