"""The kernels host code can launch, each named by an expression valid at file scope.

NVRTC compiles a template kernel only for the instantiations it is asked for by name
("name expressions", resolved at file scope), and the host side finds each kernel in the cubin
by the lowered name NVRTC reports for that expression. So every template kernel instantiation
the host code names (`scan<256>`, `scan<BLOCK>`, `k<float, 4>`) is turned into an expression
that means the same at file scope: local constants are substituted, namespace members qualified.
"""
from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from judge.result import Diagnostic
from judge.source.diagnostics import SourceFile
from judge.source.launches import LaunchSite
from judge.source.program import Function, Program, Space
from judge.source.syntax import Edit, apply_edits, text, walk

_MAX_SUBSTITUTION_DEPTH = 8


@dataclass(frozen=True)
class KernelRef:
    kernel: Function
    expression: str      # a name expression valid at file scope, e.g. "scan<256>", "ns::k<(64), float>"
    display: str         # as the user wrote it, e.g. "scan<BLOCK>"
    line: int


class _Unresolvable(Exception):
    pass


def _enclosing(node: Node, kinds: tuple[str, ...]) -> Node | None:
    parent = node.parent
    while parent is not None and parent.type not in kinds:
        parent = parent.parent
    return parent


class _Resolver:
    """Rewrites a template argument list so it means the same at file scope."""

    def __init__(self, program: Program, function: Function | None, site: Node):
        self.program = program
        self.function = function
        self.site = site

    def local_value(self, name: str) -> Node | None:
        """For a local `const`/`constexpr` named `name` declared before the site: its initializer.

        None when no local has that name; _Unresolvable when one does but is not a constant.
        """
        if self.function is None or self.function.body is None:
            return None
        params = self.function.parameters
        if params is not None and any(text(d) == name for p in params.named_children
                                      for d in p.children_by_field_name("declarator")):
            raise _Unresolvable(f"'{name}' is a parameter of {self.function.name}")
        found = None
        for node in walk(self.function.body):
            if node.type != "declaration" or node.start_byte >= self.site.start_byte:
                continue
            for declarator in node.children_by_field_name("declarator"):
                target = declarator.child_by_field_name("declarator") if declarator.type == "init_declarator" else declarator
                if target is None or text(target) != name:
                    continue
                constant = any(c.type == "type_qualifier" and text(c) in ("const", "constexpr") for c in node.children)
                value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
                if not constant or value is None:
                    raise _Unresolvable(f"'{name}' is a local variable, not a compile-time constant")
                found = value
        return found

    def resolve(self, node: Node, depth: int = 0) -> str:
        if depth > _MAX_SUBSTITUTION_DEPTH:
            raise _Unresolvable("constants nest too deeply")
        edits = []
        for leaf in walk(node):
            if leaf.type not in ("identifier", "type_identifier") or (
                    leaf.parent is not None and leaf.parent.type == "qualified_identifier"):
                continue
            name = text(leaf)
            if self.function is not None and name in self.function.template_parameters:
                raise _Unresolvable(f"'{name}' is a template parameter of {self.function.name}")
            local = self.local_value(name)
            if local is not None:
                value = self.resolve(local, depth + 1)
                edits.append(Edit(leaf.start_byte - node.start_byte, leaf.end_byte - node.start_byte,
                                  f"({value})".encode()))
            elif name in self.program.names:
                scope = "::".join(s for s in self.program.names[name] if s)
                if scope:
                    edits.append(Edit(leaf.start_byte - node.start_byte, leaf.end_byte - node.start_byte,
                                      f"{scope}::{name}".encode()))
        return apply_edits(node.text, edits).decode("utf-8")


def kernel_references(program: Program, launches: list[LaunchSite],
                      source: SourceFile) -> tuple[list[KernelRef], list[Diagnostic]]:
    """Every kernel the host side may launch, and diagnostics for launches the judge cannot name."""
    refs: dict[str, KernelRef] = {}
    problems: list[Diagnostic] = []
    by_node = {(f.node.start_byte, f.node.end_byte): f for f in program.functions}
    plain = [k for k in program.kernels if k.template is None]
    templates = {k.name: k for k in program.kernels if k.template is not None and k.template_parameters}

    for kernel in plain:
        if sum(k.qualified_name == kernel.qualified_name for k in plain) > 1:
            problems.append(source.diagnostic(kernel.line, None, f"kernel '{kernel.name}' is overloaded; "
                                              f"give each __global__ function its own name", stage="policy"))
        refs.setdefault(kernel.qualified_name, KernelRef(kernel, kernel.qualified_name, kernel.name, kernel.line))

    for site in launches:
        name = text(site.kernel).split("::")[-1].strip()
        if name in templates and name not in {k.name for k in plain}:
            problems.append(source.diagnostic(site.line, None, f"kernel template '{name}' is launched without "
                                              f"template arguments; write them out, e.g. {name}<...><<<...>>>, "
                                              f"since the judge cannot deduce them", stage="policy"))

    for fragment in program.fragments:
        for node in walk(fragment.root):
            kernel = templates.get(text(node.child_by_field_name("name"))) if node.type == "template_function" else None
            if kernel is None or _enclosing(node, ("function_declarator", "template_instantiation")) is not None:
                continue
            owner = _enclosing(node, ("function_definition",)) if not fragment.in_macro else None
            function = by_node.get((owner.start_byte, owner.end_byte)) if owner is not None else None
            if function is not None and function.space is not Space.HOST:
                continue   # named inside device code: not something the host launches
            shown = node.parent if node.parent is not None and node.parent.type == "qualified_identifier" else node
            line = fragment.file_line(node)
            try:
                arguments = _Resolver(program, function, node).resolve(node.child_by_field_name("arguments"))
            except _Unresolvable as why:
                problems.append(source.diagnostic(
                    line, None, f"cannot name kernel instantiation '{text(shown)}' at file scope: {why}. "
                    f"The judge compiles device code on its own, so template arguments of a launched kernel "
                    f"must be literals, types, or constants visible at file scope", stage="policy"))
                continue
            expression = kernel.qualified_name + arguments
            refs.setdefault(expression, KernelRef(kernel, expression, text(shown), line))
    return list(refs.values()), problems
