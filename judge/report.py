"""Render a Result in the terminal: diagnostics with source context, tests, timing with bars."""
from __future__ import annotations

import re
from itertools import groupby

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from judge.checking.console import MORE_MARKER
from judge.result import ArraySummary, Diagnostic, PerformanceHints, Result, TestResult, Verdict

VERDICT_STYLE = {Verdict.AC: "bold green", Verdict.WA: "bold red", Verdict.CE: "bold yellow", Verdict.RE: "bold magenta",
                 Verdict.TLE: "bold blue", Verdict.MLE: "bold blue", Verdict.OLE: "bold blue", Verdict.IE: "bold white on red",
                 Verdict.NR: "dim"}
BAR_WIDTH = 30
CONSOLE_LINES = 6   # of each printed text in the output section; --json has them whole


def verdict_text(v: Verdict) -> Text:
    return Text(v.value, style=VERDICT_STYLE[v])


def diagnostic_text(d: Diagnostic) -> Text:
    where = f"{d.file}:{d.line}:{d.column}" if d.line and d.column else (f"{d.file}:{d.line}" if d.line else d.file)
    style = {"error": "bold red", "warning": "bold yellow"}.get(d.severity, "cyan")
    text = Text.assemble((where, "bold"), ": ", (d.severity, style), ": ", d.message)
    if d.source_line is not None and d.line:
        gutter = f"{d.line:>5} | "
        text.append("\n" + gutter + d.source_line.rstrip("\n"))
        if d.column:
            text.append("\n" + " " * (len(gutter) + d.column - 1) + "^", style="bold green")
    return text


# Numbers in a test's message (indices, values, counts): two failures that differ only in them are alike.
_NUMBER = re.compile(r"[-+]?(?:\d[\d.]*(?:e[-+]?\d+)?|nan|inf)\b")


def tests_table(result: Result) -> Table:
    """One row per test, except that consecutive tests with the same verdict and a message alike up to
    its numbers (passed, not run for the same reason, failed the same way) share one row."""
    table = Table("test", "size", "distribution", "verdict", "message", title=f"{result.problem} tests", expand=False)
    for _, run in groupby(result.tests, key=lambda t: (t.verdict, _NUMBER.sub("#", t.message or ""))):
        tests = list(run)
        first = tests[0]
        if len(tests) > 1:
            message = first.message or ""
            if first.verdict not in (Verdict.AC, Verdict.NR):
                alike = "same" if all(t.message == first.message for t in tests) else "same, with other values,"
                message += f" ({alike} on {len(tests) - 1} more tests)"
            table.add_row(f"{first.name} … {tests[-1].name}", f"{len(tests)} tests", "", verdict_text(first.verdict),
                          message)
            continue
        size = ", ".join(f"{k}={v}" for k, v in first.size.items())
        table.add_row(first.name, size, first.distribution, verdict_text(first.verdict), first.message or "")
    return table


def console_blocks(result: Result) -> list[tuple[str, str]]:
    """What the submission printed, as (label, text): per test its kernels' printf and the run process's
    output while it ran (on the GPU both are in the test's printf), then the process's output outside the tests."""
    blocks, printf = [], "printf, stdout/stderr" if result.backend == "gpu" else "printf"
    for test in result.tests:
        if test.printf:
            blocks.append((f"{test.name} · {printf}", test.printf))
        blocks += [(f"{test.name} · stdout/stderr", part.text) for part in result.output if part.test == test.name]
    return blocks + [("outside the tests · stdout/stderr", part.text) for part in result.output if part.test is None]


def console_text(blocks: list[tuple[str, str]]) -> Text:
    """The output section of console_blocks: each printed text cut to its first CONSOLE_LINES lines (and
    the judge's marker of a cut text, which says how much more was printed)."""
    text = Text("output", style="bold")
    for label, printed in blocks:
        lines = printed.rstrip("\n").split("\n")
        marker = lines.pop() if MORE_MARKER.fullmatch(lines[-1]) else None
        text.append(f"\n{label}", style="cyan")
        for line in lines[:CONSOLE_LINES]:
            text.append(f"\n  {line}")
        if len(lines) > CONSOLE_LINES:
            text.append(f"\n  … {len(lines) - CONSOLE_LINES} more lines (--json has them)", style="dim")
        if marker:
            text.append(f"\n  {marker}", style="dim")
    return text


def smaller_failure_text(test: TestResult) -> Text:
    """The smallest failing input found after the first failure: its size, message and (small) inputs."""
    size = ", ".join(f"{k} = {v}" for k, v in test.size.items())
    text = Text.assemble("also fails at ", (size, "bold"), f" ({test.distribution}): ", verdict_text(test.verdict),
                         " ", test.message)
    for name, value in (test.inputs_shown or {}).items():
        text.append(f"\n  {name} = {shown_value(value)}")
    return text


def shown_value(value) -> str:
    """An input as the learner sees it: a list or scalar as it is, a summarised array by its ends and length."""
    if isinstance(value, ArraySummary):
        ends = ", ".join(map(str, value.first)) + ", …, " + ", ".join(map(str, value.last))
        return f"[{ends}] ({value.size:,} values)"
    return str(value)


def _bar(value: float, scale: float, style: str) -> Text:
    filled = 0 if scale <= 0 else max(0, min(BAR_WIDTH, round(BAR_WIDTH * value / scale)))
    return Text("█" * filled + "·" * (BAR_WIDTH - filled), style=style)


def timing_table(result: Result) -> Table:
    timing = result.timing
    table = Table("case", "median", "min", "IQR", "n", "GB/s", "% of copy", "vs baseline", "speed of light",
                  title=f"timing on {result.device} (copy bandwidth {timing.copy_gbps:.0f} GB/s)" if timing.copy_gbps else "timing")
    for c in timing.per_case:
        case = ", ".join(f"{k}={v}" for k, v in c.size.items()) + f" · {c.distribution}"
        ratio = f"{c.ratio_to_baseline:.2f}× ({c.baseline_us:.1f} µs" + (
            f", timed {c.baseline_age_s / 60:.0f} min ago)" if c.baseline_age_s is not None else ")") \
            if c.ratio_to_baseline else "-"
        noisy = " (noisy)" if c.noisy else ""
        batched = (f"\nper call of {c.calls_per_sample} back to back" +
                   (f"; {c.single_call_us:.1f} alone" if c.single_call_us else "")) if c.calls_per_sample > 1 else ""
        table.add_row(case, f"{c.median_us:.1f} µs{noisy}{batched}", f"{c.min_us:.1f}", f"{c.iqr_us:.1f}", str(c.samples),
                      f"{c.gbps:.0f}" if c.gbps is not None else "-", f"{c.sol_pct:.0f}%" if c.sol_pct is not None else "-",
                      ratio, _bar(c.sol_pct or 0.0, 100.0, "green"))
    return table


def kernels_table(result: Result) -> Table:
    table = Table("kernel", "grid", "block", "smem", "calls", "time", title="per-kernel breakdown (untimed pass)")
    total = sum(k.total_us for k in result.timing.per_kernel) or 1.0
    for k in result.timing.per_kernel:
        # A device-wide algorithm (CUB, Thrust) is recorded under its name, without a launch shape.
        shape = ("×".join(map(str, k.grid)), "×".join(map(str, k.block))) if any(k.grid) else ("algorithm", "-")
        table.add_row(k.kernel, *shape, str(k.shared_bytes), str(k.calls),
                      Text.assemble(f"{k.total_us:9.1f} µs ", _bar(k.total_us, total, "cyan")))
    return table


def hints_table(hints: PerformanceHints) -> Table:
    table = Table("kernel:line", "access", "lanes", "sectors/req", "bank ways", "hint",
                  title=f"performance hints (accesses observed on the CPU, {hints.tests} small tests; estimates)")
    for a in hints.accesses:
        sectors = f"{a.sectors_per_request:.1f} ({a.fewest_sectors_per_request:.1f})" if a.sectors_per_request is not None else "-"
        ways = f"{a.bank_ways:.1f} ({a.worst_bank_ways})" if a.bank_ways is not None else "-"
        table.add_row(f"{a.kernel}:{a.line or '?'}", f"{a.space} {a.access}", f"{a.lanes_active:.0f}/{a.lanes_present:.0f}",
                      sectors, ways, Text(a.hint or "ok", style="yellow" if a.hint else "green"))
    return table


def estimate_lines(hints: PerformanceHints) -> list[str]:
    return [f"estimate: {k.kernel} touches {k.bytes / 1e6:.3g} MB of global memory on {k.test}: at least "
            f"{k.lower_bound_us:.3g} µs on an {hints.reference} (a lower bound from the bytes moved, not a measurement)"
            for k in hints.kernels]


def isolation_warnings(result: Result) -> list[str]:
    """What the run lacked of the isolation the judge wants, in words (a run that never started says nothing)."""
    if result.device is None:
        return []
    missing = [name for name, word in (("bubblewrap", "bubblewrap"), ("seccomp", "seccomp"))
               if not any(i.startswith(word) for i in result.isolation)]
    if not missing:
        return []
    return [f"solve() ran without {' and without '.join(missing)}: it could read and change what your user can "
            f"(install them: apt-get install bubblewrap libseccomp2); a server refuses to judge like this"]


def render(result: Result, console: Console, *, quiet: bool = False) -> None:
    """The whole report, or with `quiet` only the verdict line (and any isolation warning, never dropped)."""
    if not quiet:
        _render_details(result, console)
    for warning in isolation_warnings(result):
        console.print(f"warning: {warning}", style="bold yellow", highlight=False)
    head = Text.assemble(verdict_text(result.verdict), "  ", result.message,
                         f"   [{result.backend}{' · ' + result.device if result.device else ''} · seed {result.seed}]")
    console.print(head, highlight=False, soft_wrap=True)   # one line, whatever its length: grep finds it


def _render_details(result: Result, console: Console) -> None:
    if result.compile.diagnostics:
        console.print(Panel(Group(*[diagnostic_text(d) for d in result.compile.diagnostics]), title="compiler",
                            border_style="yellow" if result.compile.ok else "red"))
    if result.tests:
        console.print(tests_table(result))
    if blocks := console_blocks(result):
        console.print(console_text(blocks), highlight=False)
    if result.smaller_failure:
        console.print(smaller_failure_text(result.smaller_failure))
    if result.timing:
        console.print(timing_table(result))
        if result.timing.per_kernel:
            console.print(kernels_table(result))
    if result.hints and result.hints.accesses:
        console.print(hints_table(result.hints))
    for line in estimate_lines(result.hints) if result.hints else []:
        console.print(line, style="dim", highlight=False)
    for note in result.notes:
        console.print(f"note: {note}", style="dim", highlight=False)
    if result.phases:
        console.print(phases_line(result), style="dim", highlight=False, soft_wrap=True)


def phases_line(result: Result) -> str:
    """Where the judge's time went, e.g. "time: 2.31 s (build 0.07 s (cached) · solve() calls 1.20 s · …)"."""
    cached = " (cached)" if result.compile.cached else ""
    parts = [f"{p.name} {p.seconds:.2f} s{cached if p.name == 'build' else ''}" for p in result.phases
             if p.seconds >= 0.005]
    return f"time: {sum(p.seconds for p in result.phases):.2f} s ({' · '.join(parts)})"
