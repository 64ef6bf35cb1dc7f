"""The command line: `cudajudge problems | validate | build | judge | serve | worker | admin`."""
from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from cudajudge.progress import JudgeProgress
from judge.problems.loader import ProblemError, find_problem_folder, parse_problem, problem_folders

app = typer.Typer(help="A practice judge for CUDA kernels.", no_args_is_help=True, add_completion=False)
# Piped output (a log, CI) gets 120 columns rather than rich's 80, unless COLUMNS says otherwise.
_PIPED_WIDTH = None if sys.stdout.isatty() or "COLUMNS" in os.environ else 120
console = Console(width=_PIPED_WIDTH)
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


def _validation_table(reports) -> Table:
    table = Table("problem", "backend", "state", "findings", "to do", "solutions as declared", title="validation")
    for backend, report in reports:
        state = "[green]valid[/green]" if report.ok else "[yellow]incomplete[/yellow]" if report.todos else "[red]invalid[/red]"
        judged = f"{sum(r.ok for r in report.runs)} of {len(report.runs)}" if report.runs else "-"
        table.add_row(report.folder.name, backend or "static", state, str(len(report.findings)), str(len(report.todos)),
                      judged)
    return table


def _print_report(report, backend: str | None = None) -> None:   # a judge.problems.validator.ValidationReport
    name = report.folder.name + (f" ({backend} backend)" if backend else "")
    if report.ok:
        runs = f", {len(report.runs)} solutions judged as declared" if report.runs else ""
        console.print(f"[green]✓[/green] {name}{runs}", highlight=False)
        return
    left = f" (incomplete: {len(report.todos)} to do)" if report.todos else ""
    console.print(f"[red]✗[/red] {name}{left}", highlight=False)
    for f in report.todos:
        console.print(f"    to do: {f}", highlight=False, markup=False)
    for f in report.findings:
        console.print(f"    {f}", highlight=False, markup=False)
    for r in report.runs:
        if not r.ok:
            console.print(f"    {r.path.relative_to(report.folder)}: {r.mismatch()}", highlight=False, markup=False)


@app.command("validate")
def validate_command(
    problems: Optional[list[str]] = typer.Argument(None, help="Problems to check (id, problemNN, slug or folder); default: all."),
    all_: bool = typer.Option(False, "--all", help="Check every problem of the catalog."),
    backend: str = typer.Option("auto", help="Judge every solution on: auto (GPU when present), gpu, cpu, "
                                             "every (the CPU backend, and the GPU when present), or none "
                                             "(static checks only)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Judge this many solutions at once."),
    seeds: int = typer.Option(3, "--seeds", min=1, help="Judge each rejected solution at this many seeds; it must get "
                              "its declared verdict at every one."),
) -> None:
    """Check problem folders: model, statements, starter, reference on every CPU-size test, and that
    every accepted solution is AC and every rejected one gets the verdict it declares."""
    from judge.problems.validator import validate_folder
    from judge.backends.choice import gpu_available, resolve_backend
    from judge.submission import verdict_of_file

    try:
        folders = [find_problem_folder(p) for p in problems] if problems and not all_ else problem_folders()
        chosen = ([None] if backend == "none" else ["cpu", *(["gpu"] if gpu_available() else [])]
                  if backend == "every" else [resolve_backend(backend)])
    except (ProblemError, ValueError) as exc:
        errors.print(str(exc), highlight=False, markup=False)
        raise typer.Exit(2)
    if backend == "every" and "gpu" not in chosen:
        console.print("note: this machine has no GPU: the solutions are judged on the CPU backend only", style="yellow")

    reports = []   # (backend, report)
    with console.status("validating …") as status:
        for folder in folders:
            for each in chosen:
                status.update(f"validating {folder.name} ({each or 'static'}) …")
                reports.append((each, validate_folder(folder, verdict_of_file(each) if each else None, jobs,
                                                      races_observed=each == "cpu", seeds=seeds)))
                _print_report(reports[-1][1], each if len(chosen) > 1 else None)
    failed = {r.folder for _, r in reports if not r.ok}
    if len(reports) > 1:
        console.print(_validation_table(reports))
    console.print(f"{len(folders) - len(failed)} of {len(folders)} problems valid")
    raise typer.Exit(1 if failed else 0)


@app.command("new")
def new_command(
    slug: str = typer.Argument(..., help="The problem's slug, e.g. row-softmax."),
    problem_id: Optional[int] = typer.Option(None, "--id", help="Its number (default: the catalog's highest + 1)."),
    title: Optional[str] = typer.Option(None, help="Its English title (default: from the slug)."),
    into: Optional[Path] = typer.Option(None, "--into", help="The catalog folder to write it in (default: the catalog)."),
) -> None:
    """Start a problem: a folder from the template (problem.toml with comments, reference, statements,
    starter, solution folders) whose parts still to write `cudajudge validate` lists."""
    from judge.problems.loader import problems_root
    from judge.problems.new import new_problem

    try:
        folder = new_problem(slug, into or problems_root(), problem_id, title)
    except ValueError as exc:
        errors.print(str(exc), highlight=False, markup=False)
        raise typer.Exit(2)
    console.print(f"wrote {folder}: replace each cudajudge-todo, add solutions, then run "
                  f"`cudajudge validate {folder}`", highlight=False)


def main() -> None:
    app()


@app.command("build")
def build_command(
    problem: str = typer.Argument(..., help="Problem: 83, problem83 or its slug."),
    solution: Path = typer.Argument(..., help="The .cu file to build.", exists=True, dir_okay=False),
    arch: Optional[str] = typer.Option(None, help="GPU architecture, e.g. sm_90 (default: the local GPU's, else sm_90)."),
    json_out: bool = typer.Option(False, "--json", help="Print the build result as JSON."),
) -> None:
    """Compile SOLUTION for PROBLEM: diagnostics, or what was built."""
    from judge.compilation.cli import build_command as run_build

    raise typer.Exit(run_build(problem, solution, arch, json_out))


@app.command("judge")
def judge_command(
    problem: str = typer.Argument(..., help="Problem: 83, problem83 or its slug."),
    solution: Path = typer.Argument(..., help="The .cu file to judge.", exists=True, dir_okay=False),
    backend: str = typer.Option("auto", help="auto (GPU when present), gpu or cpu."),
    seed: Optional[int] = typer.Option(None, min=0, max=2**63 - 1,
                                       help="Reproduce a run: the seed its result printed."),
    json_out: bool = typer.Option(False, "--json", help="Print the Result as JSON."),
    no_timing: bool = typer.Option(False, "--no-timing", help="Correctness only."),
    tests: Optional[list[str]] = typer.Option(None, "--tests", help="Run only these tests: a name, a group or a glob; "
                                              "repeat the option or separate with commas."),
    arch: Optional[str] = typer.Option(None, help="GPU architecture, e.g. sm_90 (default: the local GPU's)."),
    server: Optional[str] = typer.Option(None, "--server", metavar="URL",
                                         help="Judge on a cudajudge server instead of here, e.g. http://judge:8000."),
    token: Optional[str] = typer.Option(None, "--token", envvar="CUDAJUDGE_TOKEN", metavar="T",
                                        help="With --server: your API token (make one on the server's account "
                                             "page, /account)."),
    gpu: Optional[str] = typer.Option(None, "--gpu", metavar="MODEL",
                                      help="With --server: judge on this GPU model only, e.g. 'H100 80GB HBM3'."),
    quiet: bool = typer.Option(False, "--quiet", "-q",
                               help="Print only the verdict line (and any warning about missing isolation)."),
    every_test: bool = typer.Option(False, "--all", help="Judge every test, also after one fails (by default the "
                                    "judge stops at the first failing test)."),
    include_gpu_only: bool = typer.Option(False, "--include-gpu-only", help="On the CPU backend, emulate the GPU-only "
                                          "tests too (slow: their sizes are a GPU's); by default they are listed as "
                                          "not run."),
    standby: bool = typer.Option(True, "--standby/--no-standby", envvar="CUDAJUDGE_STANDBY",
                                 help="Run in a child process started in the background before this command, and "
                                      "keep one ready for the next (it exits after 10 idle minutes)."),
    shrink: bool = typer.Option(True, "--shrink/--no-shrink", help="After a failing test, look for a smaller size of "
                                "its distribution that fails too (up to 15 s), and show it."),
) -> None:
    """Judge SOLUTION for PROBLEM; exit code 0 iff accepted (130 when interrupted)."""
    tests = [t for item in tests or [] for t in item.split(",") if t] or None
    previous = signal.signal(signal.SIGINT, _interrupt)
    try:
        _judge_here_or_there(problem, solution, backend, seed, json_out, no_timing, tests, arch, server, token, gpu,
                             every_test, include_gpu_only, standby, quiet, shrink)
    except KeyboardInterrupt:
        errors.print("interrupted", highlight=False)
        raise typer.Exit(130)
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupt(signum, frame) -> None:
    """Ctrl-C: the compilers this judge started are killed at once (the runner and the reference
    process are ended as the judge unwinds); a second Ctrl-C leaves without waiting for anything."""
    from judge.compilation.process import end_all_jobs

    signal.signal(signal.SIGINT, lambda *_: os._exit(130))
    end_all_jobs()
    raise KeyboardInterrupt


def _judge_here_or_there(problem: str, solution: Path, backend: str, seed: Optional[int], json_out: bool,
                         no_timing: bool, tests: Optional[list[str]], arch: Optional[str], server: Optional[str],
                         token: Optional[str], gpu: Optional[str], every_test: bool, include_gpu_only: bool,
                         standby: bool, quiet: bool, shrink: bool) -> None:
    from judge.problems.loader import load_problem
    from judge.report import render
    from judge.backends.choice import resolve_backend
    from judge.submission import judge_source

    if server:
        raise typer.Exit(_judge_remote(server, token, problem, solution, json_out, tests, backend, seed, no_timing, arch,
                                       gpu, quiet))
    if gpu is not None:
        errors.print("--gpu chooses among a server's workers: use it with --server (here, --backend gpu judges on "
                     "this machine's GPU)", highlight=False, markup=False)
        raise typer.Exit(2)
    try:
        spec = load_problem(problem)
        source = solution.read_bytes().decode("utf-8")
    except ProblemError as exc:
        errors.print(str(exc), highlight=False, markup=False)
        raise typer.Exit(2)
    except UnicodeDecodeError as exc:
        errors.print(f"{solution}: not UTF-8 text (byte {exc.start}); save the file as UTF-8", highlight=False)
        raise typer.Exit(2)
    try:
        backend = resolve_backend(backend)
        if backend == "cpu":
            _prepare_cpu_runtime(errors if json_out else console)
        options = dict(backend=backend, seed=seed, timing=not no_timing, patterns=tests, filename=solution.name,
                       arch=arch, standby=standby, fail_fast=not every_test, include_gpu_only=include_gpu_only,
                       shrink=shrink)
        if json_out:
            result = judge_source(spec, source, **options)
        else:
            with JudgeProgress(console, f"judging {solution.name} for {spec.key} …") as progress:
                result = judge_source(spec, source, on_event=progress.on_event, **options)
    except ValueError as exc:
        errors.print(str(exc), highlight=False, markup=False)
        raise typer.Exit(2)
    if json_out:
        print(result.model_dump_json(indent=2))
    else:
        render(result, console, quiet=quiet)
    raise typer.Exit(0 if result.verdict == "AC" else 1)


def _prepare_cpu_runtime(out: Console) -> None:
    """The CPU runtime is built once per machine and compiler; the first judge says so while it waits."""
    from judge.compilation.cpu_runtime import RUNTIME_BUILD_ESTIMATE_S, CpuRuntimeBuildError, prepare_runtime, runtime_ready

    try:
        if runtime_ready():
            return
        with out.status("building the CPU backend's runtime, once for this machine and compiler "
                        f"(about {RUNTIME_BUILD_ESTIMATE_S} s on two idle cores) …"):
            seconds = prepare_runtime()
    except CpuRuntimeBuildError:
        return   # the judge reports it as its build's error
    out.print(f"built the CPU backend's runtime in {seconds:.1f} s; later judges reuse it", style="dim", highlight=False)


def _judge_remote(server: str, token: Optional[str], problem: str, solution: Path, json_out: bool,
                  tests: Optional[list[str]], backend: str, seed: Optional[int], no_timing: bool,
                  arch: Optional[str], gpu: Optional[str], quiet: bool) -> int:
    """`judge --server`: submit, follow the events, print the Result as a local judge does."""
    from cudajudge.remote import RemoteError, RemoteJudge
    from judge.report import render

    chosen = {"--seed": seed is not None, "--arch": arch is not None, "--backend": backend != "auto",
              "--no-timing": no_timing, "--tests": tests not in (None, ["sample"])}
    if any(chosen.values()):
        errors.print(f"{', '.join(k for k, v in chosen.items() if v)}: not available with --server (the server "
                     f"chooses backend and seed; '--tests sample' runs the sample tests, otherwise every test "
                     f"is judged and timed)", highlight=False, markup=False)
        return 2
    mode = "run" if tests == ["sample"] else "submit"
    try:
        source = solution.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        errors.print(f"{solution}: not UTF-8 text (byte {exc.start}); save the file as UTF-8", highlight=False)
        return 2
    try:
        remote = RemoteJudge(server, token or "")
        try:
            if json_out:
                _, result = remote.judge(problem, source, mode=mode, filename=solution.name, gpu=gpu)
            else:
                with JudgeProgress(console, f"submitting {solution.name} for {problem} to {server} …") as progress:
                    _, result = remote.judge(problem, source, mode=mode, filename=solution.name, gpu=gpu,
                                             on_event=progress.on_event)
        finally:
            remote.close()
    except RemoteError as exc:
        errors.print(f"{server}: {exc}", highlight=False, markup=False)
        return 2
    if json_out:
        print(result.model_dump_json(indent=2))
    else:
        render(result, console, quiet=quiet)
    return 0 if result.verdict == "AC" else 1


@app.command("serve")
def serve_command(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, help="Port to listen on."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="CUDAJUDGE_DATA_DIR",
                                            help="Uploaded problems and the SQLite database "
                                                 "(default: ~/.local/share/cudajudge)."),
    database_url: Optional[str] = typer.Option(None, "--database-url", envvar="CUDAJUDGE_DATABASE_URL",
                                               help="e.g. postgresql://user:pw@host/db (default: SQLite in the data dir)."),
    backend: Optional[str] = typer.Option(None, help="auto (default: GPU when present), gpu or cpu."),
    workers: Optional[int] = typer.Option(None, min=1, help="Judging workers (default: one per GPU, else 1)."),
    dispatch: Optional[str] = typer.Option(None, envvar="CUDAJUDGE_DISPATCH",
                                           help="embedded (default: judging threads in this process) or queue "
                                                "(PostgreSQL: jobs for `cudajudge worker` on any host)."),
) -> None:
    """Run the judge server: API, database (migrated on start) and the embedded dispatcher or the job queue."""
    from server.cli import serve

    try:
        serve(host, port, data_dir, database_url, backend, workers, dispatch)
    except ValueError as exc:
        errors.print(str(exc), highlight=False, markup=False)
        raise typer.Exit(2)


@app.command("worker")
def worker_command(
    database_url: Optional[str] = typer.Option(None, "--database-url", envvar="CUDAJUDGE_DATABASE_URL",
                                               help="The server's PostgreSQL database, e.g. postgresql://user:pw@host/db."),
    gpus: Optional[str] = typer.Option(None, help="GPUs to judge on, as nvidia-smi numbers them, e.g. 0,1 "
                                                  "(default: all); one judging process per GPU."),
    backend: str = typer.Option("auto", help="auto (default: GPU when present), gpu or cpu."),
    concurrency: int = typer.Option(1, min=1, help="CPU backend: submissions judged at once."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="CUDAJUDGE_DATA_DIR",
                                            help="Copies of the problems this host judges (default: ~/.local/share/cudajudge)."),
    log_level: str = typer.Option("info", help="debug, info, warning or error."),
) -> None:
    """Judge submissions from the job queue of a server run with --dispatch queue (scale-out)."""
    from server.worker import WorkerOptions, configure_logging, run

    if not database_url:
        errors.print("--database-url (or CUDAJUDGE_DATABASE_URL) is required: the server's PostgreSQL database")
        raise typer.Exit(2)
    try:
        indexes = tuple(int(g) for g in gpus.split(",")) if gpus else None
    except ValueError:
        errors.print(f"--gpus {gpus!r}: give GPU numbers separated by commas, e.g. 0,1")
        raise typer.Exit(2)
    configure_logging(log_level)
    try:
        options = WorkerOptions.from_env(database_url=database_url, backend=backend, gpus=indexes,
                                         concurrency=concurrency, data_dir=data_dir)
        raise typer.Exit(run(options))
    except ValueError as exc:
        errors.print(str(exc), highlight=False, markup=False)
        raise typer.Exit(2)


admin_app = typer.Typer(help="Administration: accounts.", no_args_is_help=True)
app.add_typer(admin_app, name="admin")


@admin_app.command("create-user")
def create_user_command(
    username: str = typer.Argument(..., help="The new account's name."),
    role: str = typer.Option("student", help="student, instructor or admin."),
    password: Optional[str] = typer.Option(None, envvar="CUDAJUDGE_PASSWORD",
                                           help="The password (default: asked for, without echo)."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="CUDAJUDGE_DATA_DIR", help="As for serve."),
    database_url: Optional[str] = typer.Option(None, "--database-url", envvar="CUDAJUDGE_DATABASE_URL",
                                               help="As for serve."),
    print_token: bool = typer.Option(False, "--print-token", help="Also print an API token for the account."),
) -> None:
    """Create an account, e.g. the first one: `cudajudge admin create-user alice --role admin`."""
    from server.cli import create_user

    if role not in ("student", "instructor", "admin"):
        errors.print(f"unknown role {role!r}: choose student, instructor or admin", highlight=False)
        raise typer.Exit(2)
    if password is None:
        password = typer.prompt("password", hide_input=True, confirmation_prompt=True)
    try:
        print(create_user(username, password, role, data_dir, database_url, print_token))
    except ValueError as exc:
        errors.print(str(exc), highlight=False, markup=False)
        raise typer.Exit(1)
