"""From a submitted file to two translation units, or to the reasons it is refused.

Order: raw-byte checks, directives (include policy), parse, signature, runtime calls, device
code's calls of host code, inline PTX, kernel names, split. When tree-sitter reports syntax
errors the file still goes to the compilers, whose messages come first; tree-sitter's are kept
for after them, and a signature complaint that may only be tree-sitter's confusion is held back
until the compilers have had their say.
"""
from __future__ import annotations

from dataclasses import dataclass

from judge.problems.model import Problem
from judge.result import Diagnostic
from judge.source.diagnostics import SourceFile
from judge.source.device_calls import check_device_calls
from judge.source.directives import logical_lines
from judge.source.inline_ptx import check_inline_ptx
from judge.source.kernels import KernelRef, kernel_references
from judge.source.launches import find_launches
from judge.source.policy import check_bytes, check_directives
from judge.source.program import analyze
from judge.source.runtime_calls import check_runtime_calls, functor_algorithm_calls
from judge.source.signature import check_signature, entry_point
from judge.source.split import TranslationUnits, split
from judge.source.syntax import parse, syntax_errors


class SourceRejected(Exception):
    """The file was refused before any compiler ran."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


@dataclass(frozen=True)
class PreparedSource:
    file: SourceFile
    units: TranslationUnits
    kernels: list[KernelRef]
    syntax_diagnostics: list[Diagnostic]   # tree-sitter's findings: reported after the compilers' own
    held_back: list[Diagnostic]            # signature findings to report if the compilers find nothing
    notes: list[Diagnostic]                # accepted signature differences, reported with a successful build
    entry: str                             # the judge's C entry point, appended to the code that defines solve
    functor_calls: list[tuple[str, int]]   # (algorithm, line) of calls that run a functor of the user's


def prepare(problem: Problem, source: str | bytes, filename: str = "solution.cu") -> PreparedSource:
    data = source.encode("utf-8") if isinstance(source, str) else source
    refused = check_bytes(data, filename)
    if refused:
        raise SourceRejected(refused)
    file = SourceFile(data.decode("utf-8"), filename)
    logical = logical_lines(data)
    report = check_directives(logical, file)
    if report.diagnostics:
        raise SourceRejected(report.diagnostics)

    tree = parse(data)
    program = analyze(data, tree)
    syntax = [file.diagnostic(line, column, message, stage="parse") for line, column, message in syntax_errors(tree.root_node)]
    signature = check_signature(program, problem, file)
    launches = find_launches(program.fragments)
    refs, naming = kernel_references(program, launches, file)
    refused = (check_runtime_calls(program, file) + check_device_calls(program, file)
               + check_inline_ptx(program, file) + naming
               + ([] if syntax else signature.diagnostics))
    if refused:
        raise SourceRejected(refused + syntax)
    entry = entry_point(problem, signature.solve) if signature.solve is not None else ""
    units = split(program, logical, report.includes, launches, refs, entry)
    return PreparedSource(file, units, refs, syntax, signature.diagnostics, signature.notes, entry,
                          functor_algorithm_calls(program))
