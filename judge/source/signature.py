"""Checking that `solve` exists with the problem's signature, and the call the judge makes into it.

Types are compared after normalizing spelling that does not change the C type: whitespace,
`const` before or after the base type, `__restrict__`, top-level `const`, parameter names,
arrays as pointers, and fixed-width aliases (`int32_t` is `int`, `int64_t` is a 64-bit integer).
Two differences that leave the call the same are accepted with a note: a pointer whose pointee
differs only in `const`, and an integer of the problem's width with the other signedness. Either
linkage is accepted: the judge calls `solve` through its own C entry point (`entry_point`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from judge.entry import ENTRY_SYMBOL
from judge.problems.model import Problem
from judge.result import Diagnostic
from judge.source.diagnostics import SourceFile
from judge.source.program import Function, Program
from judge.source.syntax import text, walk

_TOKEN = re.compile(r"[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*|\*|&&|&|\[[^\]]*\]|\S")
_DROPPED = {"__restrict__", "__restrict", "restrict", "register"}
_ALIASES = {
    "int8_t": "signed char", "uint8_t": "unsigned char", "int16_t": "short", "uint16_t": "unsigned short",
    "int32_t": "int", "uint32_t": "unsigned int", "int64_t": "long long", "uint64_t": "unsigned long long",
    "size_t": "unsigned long long", "ptrdiff_t": "long long", "half": "__half", "nv_bfloat16": "__nv_bfloat16",
}


def _base_type(words: list[str]) -> str:
    """Canonical spelling of a base type given as words: 'int unsigned' -> 'unsigned int'."""
    words = [w.split("::")[-1] if w.startswith(("std::", "::")) else w for w in words]
    if len(words) == 1 and words[0] in _ALIASES:
        return _ALIASES[words[0]]
    unsigned = "unsigned" in words
    signed = "signed" in words
    rest = [w for w in words if w not in ("unsigned", "signed")]
    longs = rest.count("long")
    rest = [w for w in rest if w != "long"]
    if longs or "short" in rest:
        rest = [w for w in rest if w != "int"]
    if rest == ["char"]:
        return ("unsigned " if unsigned else "signed " if signed else "") + "char"
    if longs:
        rest = ["long long"] + rest      # long and long long are both 64-bit on the judge's platforms
    if not rest:
        rest = ["int"]
    return ("unsigned " if unsigned else "") + " ".join(rest)


def normalize_type(spelling: str) -> str:
    """'int const * __restrict__' -> 'const int*'; top-level const is dropped."""
    tokens = [t for t in _TOKEN.findall(spelling) if t not in _DROPPED]
    tokens = ["*" if t.startswith("[") else re.sub(r"\s+", "", t) for t in tokens]
    levels: list[list[str]] = [[]]
    for t in tokens:
        if t in ("*", "&", "&&"):
            levels.append([t])
        else:
            levels[-1].append(t)
    base_words = [w for w in levels[0] if w != "const"]
    out = ("const " if "const" in levels[0] and len(levels) > 1 else "") + _base_type(base_words)
    for index, level in enumerate(levels[1:], start=1):
        out += level[0]
        if "const" in level[1:] and index < len(levels) - 1:
            out += " const"
    return out


# Bytes of each normalized integer type whose other signedness makes the same call.
_INTEGER_WIDTHS = {"signed char": 1, "unsigned char": 1, "short": 2, "unsigned short": 2, "int": 4, "unsigned int": 4,
                   "long long": 8, "unsigned long long": 8}


def _same_call(found: str, want: str) -> str | None:
    """How two different normalized types still make the same call, or None when they do not."""
    if "*" in found and found.replace("const ", "").replace(" const", "") == want.replace("const ", "").replace(" const", ""):
        return "differs only in const"
    if "*" not in found + want and _INTEGER_WIDTHS.get(found, 0) == _INTEGER_WIDTHS.get(want, -1):
        return "has the same width and the other signedness"
    return None


def _parameter_type(param: Node) -> str:
    """A parameter's type as written, without its name or default value."""
    name = None
    declarator = param.child_by_field_name("declarator")
    while declarator is not None:
        if declarator.type in ("identifier", "field_identifier"):
            name = declarator
            break
        declarator = declarator.child_by_field_name("declarator")
    default = param.child_by_field_name("default_value")
    pieces = []
    for node in walk(param):
        if node.child_count == 0 and node != name and not (default and default.start_byte <= node.start_byte):
            pieces.append(text(node))
    return " ".join(p for p in pieces if p != "=")


def _found_signature(solve: Function) -> str:
    params = [" ".join(text(p).split()) for p in solve.parameters.named_children if p.type != "comment"]
    return_type = solve.node.child_by_field_name("type")
    linkage = 'extern "C" ' if solve.extern_c else ""
    return f'{linkage}{text(return_type) if return_type else "void"} solve({", ".join(params)})'


@dataclass
class SignatureCheck:
    diagnostics: list[Diagnostic] = field(default_factory=list)   # why the file is refused
    notes: list[Diagnostic] = field(default_factory=list)         # accepted differences, said to the learner
    solve: Function | None = None                                 # the definition the judge calls


def check_signature(program: Program, problem: Problem, source: SourceFile) -> SignatureCheck:
    expected = problem.signature
    definitions = [f for f in program.named("solve") if f.body is not None]
    if not definitions:
        declared = program.named("solve")
        where = f" (it is declared at line {declared[0].line} but has no body)" if declared else ""
        return SignatureCheck([source.diagnostic(None, None, f"no definition of solve found{where}; the problem expects\n  {expected}",
                                                 stage="signature")])
    solve = definitions[0]

    def wrong(reason: str) -> SignatureCheck:
        return SignatureCheck([source.diagnostic(solve.line, None, f"solve has the wrong signature: {reason}\n"
                                                 f"  expected: {expected}\n  found:    {_found_signature(solve)}",
                                                 stage="signature")])

    if solve.template is not None:
        return wrong("solve may not be a template")
    return_type = solve.node.child_by_field_name("type")
    if return_type is None or text(return_type) != "void" or solve.node.child_by_field_name("declarator") != solve.declarator:
        return wrong("solve must return void")
    params = [p for p in solve.parameters.named_children if p.type != "comment"]
    if len(params) == 1 and text(params[0]).strip() == "void":
        params = []
    if len(params) != len(problem.params):
        return wrong(f"it takes {len(params)} parameter(s), the problem passes {len(problem.params)}")
    notes = []
    for index, (param, want) in enumerate(zip(params, problem.params), start=1):
        if param.type != "parameter_declaration":
            return wrong(f"parameter {index} ('{text(param)}') is not a plain parameter")
        written = re.sub(r"\s+([*&])", r"\1", " ".join(_parameter_type(param).split()))
        found_type, want_type = normalize_type(written), normalize_type(want.c_type)
        if found_type == want_type:
            continue
        same_call = _same_call(found_type, want_type)
        if same_call is None:
            return wrong(f"parameter {index} ('{want.name}') has type '{written}', expected '{want.c_type}'")
        notes.append(source.diagnostic(solve.line, None, f"parameter {index} ('{want.name}') is declared '{written}', the "
                                       f"problem's is '{want.c_type}': accepted, the type {same_call} and the call "
                                       f"is the same", stage="signature", severity="note"))
    return SignatureCheck(notes=notes, solve=solve)


def entry_point(problem: Problem, solve: Function) -> str:
    """C++ appended after the user's last line: the C entry point the judge calls, with the
    problem's parameters, forwarding each to `solve` as the type the user declared."""
    params = ", ".join(f"{'void*' if p.is_pointer else p.c_type} cudajudge_a{i}"
                       for i, p in enumerate(problem.params))
    args = ", ".join(f"cudajudge_entry_argument<decltype(cudajudge_a{i})>{{cudajudge_a{i}}}" for i in range(len(problem.params)))
    return ("\n// The judge's entry point: each argument converts to the type solve() declares.\n"
            "template <class T> struct cudajudge_entry_argument {\n"
            "    T value;\n"
            "    template <class U> operator U() const { return (U)value; }\n"
            "};\n"
            f'extern "C" void {ENTRY_SYMBOL}({params}) {{ ::{solve.qualified_name}({args}); }}\n')
