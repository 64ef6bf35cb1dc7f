"""The command line: `cudajudge problems | validate | build | judge`."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from judge.problems.loader import ProblemError, find_problem_folder, parse_problem, problem_folders
from judge.problems.validator import ValidationReport, validate_folder

app = typer.Typer(help="A practice judge for CUDA kernels.", no_args_is_help=True, add_completion=False)
console = Console()
errors = Console(stderr=True)


@app.command("problems")
def problems_command(json_out: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")) -> None:
    """List the problem catalog."""
    rows, broken = [], []
    for folder in problem_folders():
        try:
            p = parse_problem(folder)
        except ProblemError as exc:
            broken.append(str(exc))
            continue
        rows.append({"id": p.id, "slug": p.slug, "title": p.title.model_dump(),
                     "difficulty": p.difficulty, "tags": p.tags})
    if json_out:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        table = Table("id", "slug", "title", "标题", "difficulty", "tags", title="cudajudge problems")
        for r in rows:
            table.add_row(str(r["id"]), r["slug"], r["title"]["en"], r["title"]["zh"], r["difficulty"], ", ".join(r["tags"]))
        console.print(table)
    for message in broken:
        errors.print(f"[red]broken problem:[/red] {message}", highlight=False)
    raise typer.Exit(1 if broken else 0)


def _print_report(report: ValidationReport) -> None:
    name = report.folder.name
    if report.ok:
        runs = f", {len(report.runs)} solutions judged as declared" if report.runs else ""
        console.print(f"[green]✓[/green] {name}{runs}", highlight=False)
        return
    console.print(f"[red]✗[/red] {name}", highlight=False)
    for f in report.findings:
        console.print(f"    {f}", highlight=False, markup=False)
    for r in report.runs:
        if not r.ok:
            console.print(f"    {r.path.relative_to(report.folder)}: expected {r.expected.value}, got {r.got.value}: {r.message}",
                          highlight=False, markup=False)


@app.command("validate")
def validate_command(
    problems: Optional[list[str]] = typer.Argument(None, help="Problems to check (id, problemNN, slug or folder); default: all."),
    all_: bool = typer.Option(False, "--all", help="Check every problem of the catalog."),
) -> None:
    """Check problem folders: model, statements, starter, solutions, reference on every CPU-size test."""
    try:
        folders = [find_problem_folder(p) for p in problems] if problems and not all_ else problem_folders()
    except ProblemError as exc:
        errors.print(str(exc), highlight=False, markup=False)
        raise typer.Exit(2)
    reports = [validate_folder(f) for f in folders]
    for report in reports:
        _print_report(report)
    failed = sum(not r.ok for r in reports)
    console.print(f"{len(reports) - failed} of {len(reports)} problems valid")
    raise typer.Exit(1 if failed else 0)


def main() -> None:
    app()
