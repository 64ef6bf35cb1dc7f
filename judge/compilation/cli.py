"""`cudajudge build PROBLEM FILE [--arch sm_90] [--json]`: build a submission and show the outcome."""
from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from judge.compilation.arch import valid_arch
from judge.compilation.for_backend import build
from judge.compilation.result import BuildResult
from judge.problems.loader import ProblemError, load_problem
from judge.result import Diagnostic

_STYLE = {"error": "bold red", "warning": "yellow", "note": "cyan"}


def _show_diagnostic(console: Console, d: Diagnostic) -> None:
    where = d.file + (f":{d.line}" if d.line else "") + (f":{d.column}" if d.line and d.column else "")
    head = Text(f"{where}: ", style="bold")
    head.append(f"{d.severity}: ", style=_STYLE.get(d.severity, ""))
    head.append(d.message)
    console.print(head)
    if d.source_line is not None:
        console.print(Text(f"  {d.line:>4} | {d.source_line}"))
        if d.column:
            console.print(Text("       | " + " " * (d.column - 1) + "^", style="bold green"))


def _show_success(console: Console, result: BuildResult) -> None:
    table = Table(title=f"kernels ({result.arch})", title_justify="left")
    for column in ("kernel", "line", "lowered name"):
        table.add_column(column)
    for k in result.kernels:
        table.add_row(k.name, str(k.line), k.lowered)
    console.print(table)
    cubin_kib = result.cubin.stat().st_size / 1024 if result.cubin else 0
    timing = "cached" if result.cached else f"NVRTC {result.nvrtc_s:.2f} s, host {result.host_s:.2f} s"
    console.print(f"cubin  {result.cubin} ({cubin_kib:.1f} KiB)")
    console.print(f"host   {result.library}")
    console.print(f"built in {result.compile.seconds:.2f} s ({timing})")


def build_command(problem: str, file: Path, arch: str | None, json_out: bool) -> int:
    """Build FILE for PROBLEM; 0 if it compiled, 1 for a compile error, 2 for bad arguments."""
    console = Console()
    try:
        source = file.read_bytes()
        loaded = load_problem(problem)
    except OSError as exc:
        console.print(f"[red]cannot read {file}: {exc.strerror}[/red]")
        return 2
    except ProblemError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    if arch is not None and not valid_arch(arch):
        console.print(f"[red]--arch {arch}: expected an architecture such as sm_90[/red]")
        return 2
    result = build(loaded, source, arch=arch, filename=file.name)
    if json_out:
        print(result.model_dump_json(indent=2))
        return 0 if result.ok else 1
    for d in result.compile.diagnostics:
        _show_diagnostic(console, d)
    if not result.ok:
        errors = sum(d.severity == "error" for d in result.compile.diagnostics)
        console.print(f"[bold red]compile error[/bold red] ({errors} error{'s' if errors != 1 else ''})")
        return 1
    _show_success(console, result)
    return 0
