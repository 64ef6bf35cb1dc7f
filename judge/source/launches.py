"""Kernel launches: finding `k<<<grid, block, smem, stream>>>(args)` and rewriting it as plain C++.

The rewritten form, used by every backend, is

    cudajudge::launch(KERNEL_EXPR, GRID, BLOCK, SMEM, STREAM, LINE)(ARGS)

on the same line as the original (a missing SMEM or STREAM becomes 0). LINE is the launch's
line in the user's file, or `__LINE__` inside a macro body, where the line is the macro's use.
"""
from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from judge.source.syntax import Edit, Fragment, apply_edits, fragments, parse


@dataclass(frozen=True)
class LaunchSite:
    fragment: Fragment
    call: Node            # the call_expression
    kernel: Node          # the expression before <<<
    config: list[Node]    # grid, block[, smem[, stream]]
    line: int             # the user's line (the #define's line inside a macro body)


def _launch_parts(call: Node) -> tuple[Node, Node] | None:
    kernel = call.child_by_field_name("function")
    syntax = next((c for c in call.children if c.type == "kernel_call_syntax"), None)
    if kernel is None or syntax is None:
        return None
    return kernel, syntax


def find_launches(parsed: list[Fragment]) -> list[LaunchSite]:
    """The launches in the file and in its macro bodies (see syntax.fragments)."""
    sites = []
    for fragment in parsed:
        stack = [fragment.root]
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            if node.type != "call_expression":
                continue
            parts = _launch_parts(node)
            if parts is None:
                continue
            kernel, syntax = parts
            config = [c for c in syntax.named_children if c.type != "comment"]
            sites.append(LaunchSite(fragment, node, kernel, config, fragment.file_line(node)))
    return sorted(sites, key=lambda s: s.fragment.span(s.call))


def launch_edits(sites: list[LaunchSite]) -> list[Edit]:
    """Edits that turn each launch into the cudajudge::launch form, keeping every line break."""
    edits = []
    for site in sites:
        syntax = next(c for c in site.call.children if c.type == "kernel_call_syntax")
        opening, closing = syntax.children[0], syntax.children[-1]
        missing = ", 0" * max(0, 4 - len(site.config))
        line = "__LINE__" if site.fragment.in_macro else str(site.line)
        start, _ = site.fragment.span(site.kernel)
        open_start, open_end = site.fragment.span(opening)
        close_start, close_end = site.fragment.span(closing)
        edits += [Edit(start, start, b"cudajudge::launch("),
                  Edit(open_start, open_end, b", "),
                  Edit(close_start, close_end, f"{missing}, {line})".encode())]
    return edits


def rewrite_launches(source_text: str) -> str:
    """The source with every `k<<<...>>>(args)` rewritten as `cudajudge::launch(k, ...)(args)`."""
    source = source_text.encode("utf-8")
    return apply_edits(source, launch_edits(find_launches(fragments(parse(source))))).decode("utf-8")
