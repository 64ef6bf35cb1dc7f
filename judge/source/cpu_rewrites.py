"""The CPU backend's translation unit: a submission rewritten, line for line, into C++ that g++ compiles
against the CUDA-on-CPU runtime.

  - kernel launches become calls of `cudajudge::launch` (judge.source.launches); a bare template
    or overloaded kernel name becomes a generic lambda, so its arguments deduce the instance;
  - `extern __shared__ T name[];` becomes a pointer to the block's dynamic shared memory, and a
    `__shared__` variable in a function one the runtime lays out and bounds by name;
  - each exit from a `__global__` function records its line, for the barrier diagnostics;
  - a local variable named like a built-in (`blockDim`) is renamed in its scope;
  - inline PTX of the common forms becomes the C++ it stands for (judge.source.inline_ptx).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from tree_sitter import Node

from judge.source.inline_ptx import PtxNotSupported, device_asm, translate
from judge.source.launches import rewrite_launches
from judge.source.program import Space, analyze
from judge.source.syntax import Edit, EditedText, c_string_literal, parse, text, walk

# The CPU runtime's built-in variables, macros that a local variable of the same name must not meet.
_BUILTIN_VARIABLES = {"threadIdx", "blockIdx", "blockDim", "gridDim"}
_CLASS_KEYS = {"struct_specifier": "struct", "union_specifier": "union", "class_specifier": "class"}
_DECLARATOR_WRAPPERS = {"init_declarator", "array_declarator", "pointer_declarator", "reference_declarator",
                        "parenthesized_declarator"}

# The grammar does not know `__align__(N)`; it is blanked (same length) before parsing.
_ALIGN = re.compile(rb"__align__\s*\([^()]*\)")

@dataclass(frozen=True)
class CpuSource:
    text: str                        # what g++ compiles
    user_lines: list[bytes]          # the user's file
    launched_lines: list[bytes]      # the same after the launch rewrite
    rewrites: EditedText             # the CPU rewrites of the launched text

    def user_position(self, line: int, column: int) -> tuple[int, int | None]:
        """1-based (line, byte column) in the compiled text -> the same in the user's file; the
        column is dropped where it falls after a launch rewrite changed the line."""
        line, column = self.rewrites.source_position(line, column)
        if not 1 <= line <= len(self.user_lines):
            return line, None
        user, launched = self.user_lines[line - 1], self.launched_lines[line - 1]
        if user == launched or column <= len(os.path.commonprefix([user, launched])):
            return line, column
        return line, None


def cpu_source(source_text: str) -> CpuSource:
    """The translation unit g++ compiles, with a map back to the user's file."""
    launched = rewrite_launches(source_text).encode("utf-8")
    masked = _ALIGN.sub(lambda m: b" " * len(m.group()), launched)
    tree = parse(masked)
    program = analyze(masked, tree)
    kernels = [k for k in program.kernels if k.space == Space.KERNEL and k.body is not None]
    edits = (_extern_shared_edits(tree.root_node) + _static_shared_edits(tree.root_node) + _kernel_exit_edits(kernels)
             + _deduced_launch_edits(tree.root_node, kernels) + _shadowed_builtin_edits(tree.root_node)
             + ptx_edits(device_asm(program)))
    rewrites = EditedText(launched, edits)
    return CpuSource(rewrites.text.decode("utf-8"), source_text.encode("utf-8").split(b"\n"), launched.split(b"\n"), rewrites)


def _shadowed_builtin_edits(root: Node) -> list[Edit]:
    """A variable or parameter named like a built-in (`dim3 blockDim(256);` in host code) is renamed
    throughout its scope: the built-ins are macros in the CPU runtime (cudajudge/builtin_vars.h), and
    nvcc lets a local name shadow them."""
    renamed: dict[int, Edit] = {}
    for node in walk(root):
        if node.type != "identifier" or text(node) not in _BUILTIN_VARIABLES:
            continue
        declarator = node
        while declarator.parent is not None and declarator.parent.type in _DECLARATOR_WRAPPERS and \
                declarator.parent.child_by_field_name("declarator") == declarator:
            declarator = declarator.parent
        # `dim3 blockDim(threads);` parses as a function declaration; in a block it is the variable.
        if declarator.parent is not None and declarator.parent.type == "function_declarator" and \
                declarator.parent.child_by_field_name("declarator") == declarator and \
                declarator.parent.parent is not None and declarator.parent.parent.type == "declaration" and \
                declarator.parent.parent.parent is not None and declarator.parent.parent.parent.type == "compound_statement":
            declarator = declarator.parent
        holder = declarator.parent
        if holder is None or holder.type not in ("declaration", "parameter_declaration") or \
                declarator not in holder.children_by_field_name("declarator"):
            continue
        scope = holder.parent
        if holder.type == "parameter_declaration":
            while scope is not None and scope.type not in ("function_definition", "lambda_expression"):
                scope = scope.parent
        if scope is None or scope.type == "translation_unit":
            continue
        name = text(node)
        for use in walk(scope):
            if use.type == "identifier" and use.start_byte >= node.start_byte and text(use) == name:
                renamed[use.start_byte] = Edit(use.start_byte, use.end_byte, f"cudajudge_local_{name}".encode())
    return list(renamed.values())


def ptx_edits(statements: list[Node]) -> list[Edit]:
    """Each device code `asm(...)` as the C++ it stands for. A submission's untranslatable PTX was
    refused before the build; in a file built directly it becomes a compile error naming the PTX."""
    edits = []
    for node in statements:
        try:
            replacement = translate(node)
        except PtxNotSupported as unsupported:
            replacement = f'[] {{ static_assert(sizeof(char) == 0, {c_string_literal(str(unsupported))}); }}()'
        edits.append(Edit(node.start_byte, node.end_byte, (replacement + "\n" * text(node).count("\n")).encode("utf-8")))
    return edits


def _extern_shared_edits(root: Node) -> list[Edit]:
    """`extern __shared__ T a[], b[][4];` -> `auto* const a = cudajudge::dynamic_shared<T>(); ...`

    Every such array starts at the block's dynamic shared memory, as on the GPU. At namespace
    scope the pointer is thread_local: each OS thread that runs blocks has its own buffer."""
    edits = []
    for node, extern, declarators, element in _shared_declarations(root):
        arrays = [_array_name_and_suffix(d) for d in declarators]
        if not extern or not arrays or None in arrays:
            continue
        scope = "" if node.parent is not None and node.parent.type == "compound_statement" else "thread_local "
        replacement = " ".join(f'{scope}auto* const {name} = cudajudge::dynamic_shared<{element}{suffix}>("{name}");'
                               for name, suffix in arrays)
        replacement += "\n" * text(node).count("\n")
        edits.append(Edit(node.start_byte, node.end_byte, replacement.encode("utf-8")))
    return edits


def _static_shared_edits(root: Node) -> list[Edit]:
    """`__shared__ T a[N], b;` in a function -> `auto& a = cudajudge::static_shared<T[N], site>("a", "T[N]"); ...`

    The runtime then lays out each block's variables itself, knows their names and shapes, and
    the memory observer bounds every access by the variable it falls in. A type defined in the
    declaration (`__shared__ union { ... } temp;`) is defined just before, named if it has no
    name, since a template argument cannot define one. At namespace scope the declaration stays
    thread_local storage."""
    edits = []
    site = 0
    for node, extern, declarators, element in _shared_declarations(root):
        named = [_declared_name(d) for d in declarators]
        if extern or node.parent is None or node.parent.type != "compound_statement" or not declarators or None in named:
            continue
        definition = ""
        base = node.child_by_field_name("type")
        if base.type in _CLASS_KEYS and base.child_by_field_name("body") is not None:
            type_name = base.child_by_field_name("name")
            type_name = text(type_name) if type_name is not None else f"cudajudge_shared_type_{site}"
            definition = f"{_CLASS_KEYS[base.type]} {type_name} {text(base.child_by_field_name('body'))}; "
            qualifiers = [text(c) for c in node.children if c.type == "type_qualifier" and text(c) != "__shared__"]
            element = " ".join(qualifiers + [type_name])
        parts = []
        for declarator, name in zip(declarators, named):
            shape = (text(declarator)[:name.start_byte - declarator.start_byte]
                     + text(declarator)[name.end_byte - declarator.start_byte:])
            written = " ".join(f"{element}{shape}".split())
            parts.append(f'auto& {text(name)} = cudajudge::static_shared<{written}, {site}>("{text(name)}", '
                         f'{c_string_literal(written)});')
            site += 1
        replacement = definition + " ".join(parts)
        replacement += "\n" * (text(node).count("\n") - replacement.count("\n"))
        edits.append(Edit(node.start_byte, node.end_byte, replacement.encode("utf-8")))
    return edits


def _shared_declarations(root: Node):
    """Each declaration with `__shared__`: (node, whether `extern`, its declarators, the element type)."""
    for node in walk(root):
        if node.type != "declaration":
            continue
        words = [text(c) for c in node.children if c.type in ("storage_class_specifier", "type_qualifier")]
        element = _shared_element_type(node)
        if "__shared__" in words and element is not None:
            yield node, "extern" in words, node.children_by_field_name("declarator"), element


def _declared_name(declarator: Node) -> Node | None:
    """The identifier a declarator declares (`tile` in `tile[32][33]`, `p` in `(*p)[4]`); None for an initializer."""
    node = declarator
    while node.type in ("array_declarator", "pointer_declarator", "parenthesized_declarator", "reference_declarator"):
        inner = node.child_by_field_name("declarator")
        if inner is None:
            inner = next((c for c in node.named_children if c.type.endswith("declarator") or c.type == "identifier"), None)
        if inner is None:
            return None
        node = inner
    return node if node.type == "identifier" else None


def _shared_element_type(declaration: Node) -> str | None:
    base = declaration.child_by_field_name("type")
    if base is None:
        return None
    qualifiers = [text(c) for c in declaration.children if c.type == "type_qualifier" and text(c) != "__shared__"]
    return " ".join(qualifiers + [text(base)])


def _array_name_and_suffix(declarator: Node) -> tuple[str, str] | None:
    """`s[]` -> ("s", ""), `s[][32]` -> ("s", "[32]"): the name and the element's array bounds."""
    sizes = []
    node = declarator
    while node.type == "array_declarator":
        size = node.child_by_field_name("size")
        sizes.append(f"[{text(size)}]" if size is not None else "[]")
        inner = node.child_by_field_name("declarator")
        if inner is None:
            return None
        node = inner
    if node.type != "identifier" or not sizes or sizes[-1] != "[]":
        return None
    return text(node), "".join(reversed(sizes[:-1]))


def _kernel_exit_edits(kernels) -> list[Edit]:
    """Mark where threads leave each kernel: at every `return;` and at the closing brace."""
    edits = []
    for kernel in kernels:
        body = kernel.body
        closing = body.children[-1] if body.children else None
        if closing is None or closing.type != "}" or closing.is_missing:
            continue
        stack = list(body.children)
        while stack:
            node = stack.pop()
            if node.type in ("lambda_expression", "class_specifier", "struct_specifier", "union_specifier"):
                continue
            if node.type == "return_statement" and not node.named_children:
                edits.append(Edit(node.start_byte, node.end_byte, b"return cudajudge::kernel_return(__LINE__);"))
            stack.extend(node.children)
        edits.append(Edit(closing.start_byte, closing.start_byte, b"cudajudge::kernel_end(__LINE__); "))
    return edits


def _deduced_launch_edits(root: Node, kernels) -> list[Edit]:
    """`cudajudge::launch(k, ...)` where `k` names a kernel template or overloaded kernels: the
    name is no function pointer, so a generic lambda calls it and the arguments pick the kernel."""
    definitions: dict[str, int] = {}
    for kernel in kernels:
        definitions[kernel.name] = definitions.get(kernel.name, 0) + (2 if kernel.template is not None else 1)
    deduced = {name for name, count in definitions.items() if count > 1}
    edits = []
    for node in walk(root):
        if node.type != "call_expression":
            continue
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None or arguments is None or text(function) != "cudajudge::launch":
            continue
        first = next((c for c in arguments.named_children if c.type != "comment"), None)
        if first is None or first.type != "identifier" or text(first) not in deduced:
            continue
        name = text(first)
        edits.append(Edit(function.start_byte, function.end_byte, b"cudajudge::launch_deduced"))
        edits.append(Edit(first.start_byte, first.end_byte,
                          f'"{name}", [](auto... cudajudge_args) {{ {name}(cudajudge_args...); }}'.encode("utf-8")))
    return edits
