"""Inline PTX: the forms the judge takes, and the C++ each stands for on the CPU backend.

The CPU backend compiles device code as host code, where PTX means nothing, so it translates the
forms learners write: reads of special registers (`mov.u32 %0, %%laneid;`), loads and stores
through 64-bit pointers (`ld.global.nc.f32 %0, [%1];`), barriers, fences, prefetches (nothing to
do), integer and float arithmetic, and popc/clz/brev/prmt. Any other `asm` in device code is
refused before either compiler runs (`check_inline_ptx`), so both backends give one verdict.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from judge.result import Diagnostic
from judge.source.diagnostics import SourceFile
from judge.source.program import Program, Space
from judge.source.syntax import line_of, text, walk

_TYPES = {"u8": "unsigned char", "s8": "signed char", "u16": "unsigned short", "s16": "short", "b16": "unsigned short",
          "u32": "unsigned int", "s32": "int", "b32": "unsigned int", "u64": "unsigned long long",
          "s64": "long long", "b64": "unsigned long long", "f32": "float", "f64": "double"}
_SPECIAL = {"laneid": "cudajudge::ptx::laneid()", "warpid": "cudajudge::ptx::warpid()", "smid": "0u", "nsmid": "1u",
            "clock": "(unsigned int)clock64()", "clock64": "(unsigned long long)clock64()",
            "globaltimer": "cudajudge::ptx::globaltimer()",
            "lanemask_lt": "cudajudge::ptx::lanemask(0)", "lanemask_le": "cudajudge::ptx::lanemask(1)",
            "lanemask_eq": "cudajudge::ptx::lanemask(2)", "lanemask_ge": "cudajudge::ptx::lanemask(3)",
            "lanemask_gt": "cudajudge::ptx::lanemask(4)",
            **{f"{reg}.{axis}": f"{var}.{axis}" for reg, var in (("tid", "threadIdx"), ("ntid", "blockDim"),
                                                                    ("ctaid", "blockIdx"), ("nctaid", "gridDim"))
               for axis in "xyz"}}
_PTX_BINARY = {"add": "{a} + {b}", "sub": "{a} - {b}", "mul": "{a} * {b}", "min": "{a} < {b} ? {a} : {b}",
           "max": "{a} > {b} ? {a} : {b}", "and": "{a} & {b}", "or": "{a} | {b}", "xor": "{a} ^ {b}",
           "shl": "{a} << {b}", "shr": "{a} >> {b}", "div": "{a} / {b}", "rem": "{a} % {b}"}
_UNARY = {("popc", "b32"): "__popc", ("popc", "b64"): "__popcll", ("clz", "b32"): "__clz", ("brev", "b32"): "__brev",
          ("brev", "b64"): "__brevll", ("not", None): "~", ("neg", None): "-", ("abs", None): "cudajudge::ptx::absolute"}
_FENCES = {"cta": "__threadfence_block()", "gl": "__threadfence()", "gpu": "__threadfence()", "sys": "__threadfence_system()"}
_ADDRESS = re.compile(r"^\[\s*%(\d+)\s*(?:\+\s*(-?\d+))?\s*\]$")
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"'}


_EMULATED = ("special registers, ld/st through 64-bit pointers, bar.sync, membar/fence, prefetch, integer and float "
             "arithmetic, popc/clz/brev/prmt")


class PtxNotSupported(Exception):
    """An `asm` statement the CPU backend cannot translate; the message says what it holds."""


def _template(asm: Node) -> str:
    pieces = []
    for node in walk(asm.child_by_field_name("assembly_code") or asm):
        if node.type in ("string_content", "escape_sequence"):
            raw = text(node)
            pieces.append(_ESCAPES.get(raw[1:], "") if node.type == "escape_sequence" else raw)
        if node.type in ("gnu_asm_output_operand_list", "gnu_asm_input_operand_list"):
            break
    return "".join(pieces).replace("%%", "%")


def _operands(asm: Node) -> list[tuple[str, str]]:
    """(constraint, expression) of each operand, outputs first, as PTX numbers them."""
    found = []
    for kind in ("gnu_asm_output_operand", "gnu_asm_input_operand"):
        for node in walk(asm):
            if node.type == kind:
                constraint = text(node.child_by_field_name("constraint") or node.named_children[0]).strip('"')
                value = node.child_by_field_name("value") or node.named_children[-1]
                found.append((constraint, text(value)))
    return found


class _Translator:
    def __init__(self, operands: list[tuple[str, str]]):
        self.operands = operands

    def operand(self, token: str, ctype: str | None = None) -> str:
        token = token.strip()
        if token.startswith("%") and token[1:].isdigit():
            index = int(token[1:])
            if index >= len(self.operands):
                raise PtxNotSupported(f"operand {token} is not given")
            expression = f"({self.operands[index][1]})"
            return f"cudajudge::ptx::bits<{ctype}>{expression}" if ctype else expression
        if token.startswith("%") and token[1:] in _SPECIAL:
            return f"cudajudge::ptx::bits<{ctype}>({_SPECIAL[token[1:]]})" if ctype else _SPECIAL[token[1:]]
        if re.fullmatch(r"-?(0[xX][0-9a-fA-F]+|\d+)[uU]?", token):
            return f"(({ctype}){token})" if ctype else token   # an immediate is a number of the type
        raise PtxNotSupported(f"operand {token}")

    def assign(self, token: str, value: str) -> str:
        """An output operand set to `value`, keeping its bits where the C++ types differ in name only."""
        if not (token.strip().startswith("%") and token.strip()[1:].isdigit()):
            raise PtxNotSupported(f"destination {token.strip()}")
        return f"cudajudge::ptx::assign({self.operand(token)}, {value})"

    def address(self, token: str, ctype: str, volatile: bool) -> str:
        match = _ADDRESS.match(token.strip())
        if not match or self.operands[int(match.group(1))][0].lstrip("=+") != "l":
            raise PtxNotSupported(f"address {token.strip()} (a 64-bit pointer operand, \"l\", is needed)")
        offset = f" + {match.group(2)}" if match.group(2) else ""
        pointer = f"reinterpret_cast<{'volatile ' if volatile else ''}{ctype}*>((char*){self.operand('%' + match.group(1))}{offset})"
        return f"(*{pointer})"

    def instruction(self, line: str) -> str:
        opcode, _, rest = line.partition(" ")
        parts = opcode.split(".")
        args = [a.strip() for a in rest.split(",")] if rest.strip() else []
        ptx_type = next((p for p in reversed(parts) if p in _TYPES), None)
        ctype = _TYPES.get(ptx_type or "")
        head = parts[0]
        if head in ("bar", "barrier") and args in (["0"], []) and "warp" not in parts:
            return "__syncthreads()"
        if head == "bar" and parts[1:2] == ["warp"] and len(args) == 1:
            return f"__syncwarp({self.operand(args[0], 'unsigned int')})"
        if head == "membar" and len(parts) == 2 and parts[1] in _FENCES:
            return _FENCES[parts[1]]
        if head == "fence" and parts[-1] in _FENCES:
            return _FENCES[parts[-1]]
        if head in ("prefetch", "prefetchu"):
            return "(void)0"
        if head == "nanosleep" and len(args) == 1:
            return f"__nanosleep({self.operand(args[0], 'unsigned int')})"
        if ctype is None or not args:
            raise PtxNotSupported("")
        if head == "mov" and len(args) == 2:
            return self.assign(args[0], self.operand(args[1], ctype))
        if head == "ld" and len(args) == 2:
            volatile = any(p in ("volatile", "relaxed", "acquire") for p in parts)
            return self.assign(args[0], self.address(args[1], ctype, volatile))
        if head == "st" and len(args) == 2:
            volatile = any(p in ("volatile", "relaxed", "release") for p in parts)
            return f"{self.address(args[0], ctype, volatile)} = {self.operand(args[1], ctype)}"
        if head in _PTX_BINARY and len(args) == 3 and "wide" not in parts and "hi" not in parts:
            a, b = self.operand(args[1], ctype), self.operand(args[2], ctype)
            return self.assign(args[0], f"({ctype})({_PTX_BINARY[head].format(a=a, b=b)})")
        if head in ("mad", "fma") and len(args) == 4 and "wide" not in parts and "hi" not in parts:
            a, b, c = (self.operand(x, ctype) for x in args[1:])
            return self.assign(args[0], f"({ctype})({a} * {b} + {c})")
        if head == "prmt" and len(args) == 4:
            a, b, c = (self.operand(x, "unsigned int") for x in args[1:])
            return self.assign(args[0], f"__byte_perm({a}, {b}, {c})")
        unary = _UNARY.get((head, ptx_type)) or _UNARY.get((head, None))
        if unary and len(args) == 2:
            return self.assign(args[0], f"({ctype})({unary}({self.operand(args[1], ctype)}))")
        raise PtxNotSupported("")


def translate(asm: Node) -> str:
    """The C++ expression an `asm(...)` expression stands for; raises PtxNotSupported."""
    template = _template(asm)
    instructions = [i.strip() for i in re.split(r"[;\n]", re.sub(r"//[^\n]*", "", template)) if i.strip()]
    translator = _Translator(_operands(asm))
    statements = []
    for instruction in instructions:
        instruction = " ".join(instruction.split())
        try:
            statements.append(translator.instruction(instruction))
        except PtxNotSupported as unsupported:
            detail = f" ({unsupported})" if str(unsupported) else ""
            raise PtxNotSupported(f"inline PTX `{instruction}` is not supported{detail}: the judge takes the PTX its "
                                  f"CPU backend can emulate, {_EMULATED}") from None
    return "[&] { " + "; ".join(statements) + "; }()"


def device_asm(program: Program) -> list[Node]:
    """The `asm(...)` expressions of device code (host code's asm is the host compiler's business)."""
    return [node for function in program.functions
            if function.space in (Space.KERNEL, Space.DEVICE, Space.BOTH) and function.body is not None
            for node in walk(function.body) if node.type == "gnu_asm_expression"]


def check_inline_ptx(program: Program, source: SourceFile) -> list[Diagnostic]:
    found = []
    for node in device_asm(program):
        try:
            translate(node)
        except PtxNotSupported as unsupported:
            found.append(source.diagnostic(line_of(node), node.start_point.column + 1, str(unsupported), stage="policy"))
    return found
