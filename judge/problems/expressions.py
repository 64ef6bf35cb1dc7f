"""Arithmetic expressions over scalar parameters ("rows*cols", "4*n + 4", "min(n, 16)").

Problem files are data, so their expressions are evaluated by walking the AST with a fixed
set of operators and functions, never by eval().
"""
from __future__ import annotations

import ast
import math
import operator

_BINARY_OPERATORS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv, ast.Div: operator.truediv, ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_FUNCTIONS = {"min": min, "max": max, "ceil": math.ceil, "floor": math.floor, "log2": math.log2, "sqrt": math.sqrt}


class ExpressionError(ValueError):
    pass


def _parse(expr: str) -> ast.Expression:
    try:
        return ast.parse(str(expr).strip(), mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"not an arithmetic expression: {exc.msg}") from None


def _walk(node: ast.AST, names: dict[str, float] | None, seen: set[str]):
    if isinstance(node, ast.Expression):
        return _walk(node.body, names, seen)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        seen.add(node.id)
        if names is None:
            return 1
        if node.id not in names:
            raise ExpressionError(f"unknown name {node.id!r}")
        return names[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY_OPERATORS:
        left, right = _walk(node.left, names, seen), _walk(node.right, names, seen)
        if names is None:
            return 1
        try:
            return _BINARY_OPERATORS[type(node.op)](left, right)
        except ZeroDivisionError:
            raise ExpressionError("division by zero") from None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _walk(node.operand, names, seen)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS and not node.keywords:
        args = [_walk(a, names, seen) for a in node.args]
        return 1 if names is None else _FUNCTIONS[node.func.id](*args)
    raise ExpressionError(f"unsupported syntax {ast.dump(node)[:60]}; use numbers, scalar names, + - * / // % **, "
                          f"and {', '.join(sorted(_FUNCTIONS))}")


def names_in(expr: str | float) -> set[str]:
    """The scalar names an expression uses (checks its syntax too)."""
    seen: set[str] = set()
    _walk(_parse(str(expr)), None, seen)
    return seen


def evaluate(expr: str | float, names: dict[str, float]) -> float:
    if isinstance(expr, (int, float)):
        return expr
    return _walk(_parse(expr), names, set())
