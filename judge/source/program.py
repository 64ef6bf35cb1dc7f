"""What a submission declares, and where each piece of it runs (host, device, both, kernel).

The split into device and host translation units is driven by this classification.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from typing import Iterator

from tree_sitter import Node, Tree

from judge.source.syntax import Fragment, fragments, line_of, parse, text, walk


class Space(str, Enum):
    HOST = "host"          # host code only: blanked in the device TU
    DEVICE = "device"      # device code only: blanked in the host TU
    BOTH = "both"          # types, constants, macros, __host__ __device__ functions
    KERNEL = "kernel"      # __global__: compiled for the device, a launch stub on the host


# Namespaces that exist only in the device TU (their headers are device-only).
DEVICE_NAMESPACES = frozenset({"cub", "cooperative_groups", "nvcuda", "cuda"})

_SPACE_TOKENS = {"__global__", "__device__", "__host__", "__constant__", "__shared__", "__managed__"}
_CONTAINERS = {"translation_unit", "declaration_list", "preproc_if", "preproc_ifdef", "preproc_else",
               "preproc_elif", "preproc_elifdef"}
_TYPE_ITEMS = {"struct_specifier", "class_specifier", "union_specifier", "enum_specifier", "type_definition",
               "alias_declaration", "static_assert_declaration", "namespace_alias_definition",
               "using_declaration", "concept_definition", "template_instantiation"}
_CLASS_BODIES = {"struct_specifier", "class_specifier", "union_specifier"}


@dataclass(frozen=True)
class Function:
    node: Node                   # the function_definition, or the declaration of a prototype
    item: Node                   # what to blank or keep: the node, or its template_declaration
    name: str
    scope: tuple[str, ...]       # enclosing namespaces ("" for an anonymous one)
    space: Space
    template: Node | None        # the template_declaration around it
    declarator: Node             # the function_declarator
    extern_c: bool
    member: bool                 # declared inside a class
    annotated: bool = False      # written with __host__/__device__/__global__

    @property
    def body(self) -> Node | None:
        return self.node.child_by_field_name("body")

    @property
    def line(self) -> int:
        return line_of(self.node)

    @property
    def qualified_name(self) -> str:
        return "::".join([s for s in self.scope if s] + [self.name])

    @property
    def parameters(self) -> Node:
        return self.declarator.child_by_field_name("parameters")

    @property
    def template_parameters(self) -> list[str]:
        if self.template is None:
            return []
        plist = self.template.child_by_field_name("parameters")
        names = []
        for p in plist.named_children if plist else []:
            ident = next((n for n in walk(p) if n.type in ("identifier", "type_identifier")), None)
            if ident is not None:
                names.append(text(ident))
        return names


@dataclass(frozen=True)
class Item:
    node: Node
    space: Space


@dataclass
class Program:
    source: bytes
    tree: Tree
    items: list[Item] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)
    device_namespaces: set[str] = field(default_factory=lambda: set(DEVICE_NAMESPACES))
    names: dict[str, tuple[str, ...]] = field(default_factory=dict)   # namespace-scope name -> its namespaces

    @cached_property
    def fragments(self) -> list[Fragment]:
        """The file and its macro bodies, parsed."""
        return fragments(self.tree)

    @property
    def kernels(self) -> list[Function]:
        return [f for f in self.functions if f.space is Space.KERNEL and f.body is not None]

    def named(self, name: str) -> list[Function]:
        return [f for f in self.functions if f.name == name and not f.member]

    def host_only(self, members: bool) -> dict[str, Function]:
        """Names whose every function in the file (member functions too, if `members`) is host code
        only, each with its first such function."""
        chosen = [f for f in self.functions if members or not f.member]
        spaces: dict[str, set[Space]] = {}
        for f in chosen:
            spaces.setdefault(f.name, set()).add(f.space)
        return {name: next(f for f in chosen if f.name == name) for name, found in spaces.items() if found == {Space.HOST}}


def calls(body: Node) -> Iterator[tuple[Node, Node]]:
    """Each call in `body` with the expression it calls (a template's name for `f<T>(...)`)."""
    for node in walk(body):
        if node.type == "call_expression":
            callee = node.child_by_field_name("function")
            if callee is not None and callee.type == "template_function":
                callee = callee.child_by_field_name("name")
            if callee is not None:
                yield node, callee


def _space_tokens(node: Node) -> set[str]:
    """CUDA execution/memory-space keywords among a declaration's own specifiers."""
    found = set()
    for child in node.children:
        if child.type in _SPACE_TOKENS:
            found.add(child.type)
        elif child.type == "type_qualifier":
            found |= {c.type for c in child.children if c.type in _SPACE_TOKENS}
    return found


def _has_keyword(node: Node, keyword: str) -> bool:
    return any(c.type == keyword or (c.type in ("type_qualifier", "storage_class_specifier") and
                                     any(g.type == keyword for g in c.children)) for c in node.children)


def _namespaces_used(node: Node) -> set[str]:
    used = set()
    for n in walk(node):
        if n.type == "namespace_identifier":
            used.add(text(n))
        elif n.type == "using_declaration" and any(c.type == "namespace" for c in n.children):
            target = n.named_children[-1] if n.named_children else None
            if target is not None:
                used.add(text(target).split("::")[0].strip())
    return used


def _declared_names(node: Node) -> list[str]:
    """Names a namespace-scope declaration introduces: variables, types, enumerators, aliases."""
    names = []
    for declarator in node.children_by_field_name("declarator"):
        while declarator is not None and declarator.type not in ("identifier", "type_identifier"):
            declarator = declarator.child_by_field_name("declarator")
        if declarator is not None:
            names.append(text(declarator))
    for child in node.children:
        if child.type in ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier"):
            names += _declared_names(child)
    if node.type in ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier", "alias_declaration",
                     "concept_definition"):
        name = node.child_by_field_name("name")
        if name is not None:
            names.append(text(name))
    body = node.child_by_field_name("body") if node.type == "enum_specifier" else None
    if body is not None:
        names += [text(e.child_by_field_name("name")) for e in body.named_children if e.type == "enumerator"]
    return names


def _function_declarator(node: Node) -> Node | None:
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    return declarator


def _declared_name(declarator: Node) -> str:
    name = declarator.child_by_field_name("declarator")
    if name is None:
        return ""
    if name.type == "template_function":
        name = name.child_by_field_name("name")
    if name.type == "qualified_identifier":
        return text(name).split("::")[-1]
    return text(name)


class _Classifier:
    def __init__(self, program: Program):
        self.program = program

    def function_space(self, node: Node, tokens: set[str]) -> Space:
        if "__global__" in tokens:
            return Space.KERNEL
        if "__device__" in tokens:
            return Space.BOTH if "__host__" in tokens else Space.DEVICE
        if "__host__" not in tokens and _has_keyword(node, "constexpr"):
            return Space.BOTH    # constexpr helpers serve device code too (NVRTC runs with -default-device)
        return Space.HOST

    def narrowed(self, node: Node, space: Space, annotated: bool) -> Space:
        """BOTH narrowed by the namespaces an item uses: std is host-only, CUB & co. device-only."""
        if space is not Space.BOTH:
            return space
        used = _namespaces_used(node)
        if used & self.program.device_namespaces:
            return Space.DEVICE
        if "std" in used and not annotated:
            return Space.HOST
        return space

    def add_function(self, node: Node, item: Node, scope: tuple[str, ...], template: Node | None,
                     extern_c: bool, member: bool) -> None:
        declarator = _function_declarator(node)
        if declarator is None:
            return
        tokens = _space_tokens(node)
        space = self.narrowed(node, self.function_space(node, tokens), annotated=bool(tokens))
        if member and space is Space.HOST and "std" not in _namespaces_used(node):
            space = Space.BOTH   # plain member functions stay in the device TU; NVRTC judges their use
        self.program.functions.append(Function(node, item, _declared_name(declarator), scope, space, template,
                                               declarator, extern_c, member, annotated=bool(tokens)))
        self.program.items.append(Item(item, space))

    def visit(self, node: Node, scope: tuple[str, ...] = (), extern_c: bool = False,
              template: Node | None = None, member: bool = False, outer: Node | None = None) -> None:
        """outer: a node wrapping this one that goes with it (`extern "C"` before a single declaration)."""
        kind = node.type
        item = outer or template or node
        if kind in _CONTAINERS or kind == "field_declaration_list":
            for child in node.named_children:
                if node.type.startswith("preproc_") and child == node.child_by_field_name("condition"):
                    continue
                self.visit(child, scope, extern_c, None, member or kind == "field_declaration_list")
        elif kind == "namespace_definition":
            name = node.child_by_field_name("name")
            body = node.child_by_field_name("body")
            if body is not None:
                self.visit(body, scope + (text(name) if name else "",), extern_c)
        elif kind == "linkage_specification":
            body = node.child_by_field_name("body")
            if body is not None:
                self.visit(body, scope, True, outer=None if body.type == "declaration_list" else node)
        elif kind == "template_declaration":
            inner = [c for c in node.named_children if c.type not in ("template_parameter_list", "comment")]
            for child in inner:
                self.visit(child, scope, extern_c, node, member, outer)
        elif kind == "function_definition" or (kind in ("declaration", "field_declaration") and _function_declarator(node)):
            self.add_function(node, item, scope, template, extern_c, member)
        elif kind in ("declaration", "field_declaration"):
            self.program.items.append(Item(item, self.variable_space(node, member)))
            self.record_names(node, scope, member)
        elif kind in _TYPE_ITEMS:
            self.record_names(node, scope, member)
            if kind == "namespace_alias_definition":
                names = [text(c) for c in node.named_children]
                if len(names) >= 2 and names[-1].split("::")[0] in self.program.device_namespaces:
                    self.program.device_namespaces.add(names[0])
            space = self.narrowed(node, Space.BOTH, annotated=False)
            self.program.items.append(Item(item, space))
            if space is not Space.HOST and kind in _CLASS_BODIES:
                body = node.child_by_field_name("body")
                if body is not None:
                    self.visit(body, scope, extern_c, None, True)
        elif kind not in ("preproc_include", "comment"):
            self.program.items.append(Item(item, self.narrowed(node, Space.BOTH, annotated=False)))

    def record_names(self, node: Node, scope: tuple[str, ...], member: bool) -> None:
        if not member:
            for name in _declared_names(node):
                self.program.names.setdefault(name, scope)

    def variable_space(self, node: Node, member: bool) -> Space:
        tokens = _space_tokens(node)
        if tokens & {"__device__", "__constant__", "__shared__", "__managed__"}:
            return Space.DEVICE
        if member or _has_keyword(node, "const") or _has_keyword(node, "constexpr"):
            return self.narrowed(node, Space.BOTH, annotated=False)
        struct = next((c for c in node.named_children if c.type in _CLASS_BODIES), None)
        if struct is not None and struct.child_by_field_name("body") is not None:
            self.visit(struct.child_by_field_name("body"), (), False, None, True)
            return self.narrowed(node, Space.BOTH, annotated=False)
        return Space.HOST


def _keep_host_callers_on_the_host(program: Program) -> None:
    """An unannotated function the split would give device code too (a member function, a constexpr
    helper) stays host code when it calls a function of this file that is host code only: nvcc
    would compile it for the host alone."""
    changed = True
    while changed:
        changed = False
        host_only = program.host_only(members=True)   # a member may call another unqualified
        for index, f in enumerate(program.functions):
            if f.space is Space.BOTH and not f.annotated and f.body is not None and \
                    any(callee.type == "identifier" and text(callee) in host_only for _, callee in calls(f.body)):
                program.functions[index] = replace(f, space=Space.HOST)
                program.items = [Item(i.node, Space.HOST) if i.node == f.item else i for i in program.items]
                changed = True


def analyze(source: bytes, tree: Tree | None = None) -> Program:
    program = Program(source, tree or parse(source))
    _Classifier(program).visit(program.tree.root_node)
    _keep_host_callers_on_the_host(program)
    return program
