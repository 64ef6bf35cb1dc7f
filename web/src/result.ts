// A submission's result (live.ts shows it while it is judged): compile diagnostics, per-test verdicts,
// the first mismatch with the small input, timing per case with its chart, and the per-kernel breakdown.
import { caseLabel, formatUs, speedOfLightUs, timingChart } from "./chart";
import { h, replace } from "./dom";
import { t, verdictName } from "./i18n";
import type { ArraySummary, CompileInfo, Diagnostic, Mismatch, PerformanceHints, PhaseTime, Result, Status, SubmissionOut, TestResult, Timing } from "./types";

export function verdictBadge(verdict: string | null, status: Status = "done"): HTMLElement {
  if (!verdict) return h("span", { class: `badge status-${status}` }, t(status));
  return h("span", { class: `badge verdict-${verdict}`, title: verdictName(verdict) }, verdict);
}

export function testTable(body: HTMLElement): HTMLElement {
  return h("div", { class: "table-scroll tests-table" },
           h("table", { class: "table compact" },
             h("thead", null, h("tr", null, h("th", null, t("test")), h("th", null, t("verdict")),
                                h("th", null, t("message")), h("th", { class: "num" }, t("time")))),
             body));
}

export function testRow(r: TestResult): HTMLElement {
  return h("tr", { class: r.verdict === "AC" ? "" : "failed", dataset: { test: r.name } },
           h("td", { class: "mono" }, r.name), h("td", null, verdictBadge(r.verdict)),
           h("td", { class: "message" }, withCode(r.message)),
           h("td", { class: "num" }, r.time_ms !== null ? `${r.time_ms.toFixed(1)} ms` : ""));
}

/** One row per test, except that consecutive tests with the same verdict and a message alike up to its
 *  numbers share one row ("edge/n=1 … edge/n=257", the first message, "same on 11 more tests"). */
const NUMBER = /[-+]?(?:\d[\d.]*(?:e[-+]?\d+)?|nan|inf)\b/g;   // as the CLI's table groups them

export function groupedRows(tests: TestResult[]): HTMLElement[] {
  const key = (r: TestResult) => `${r.verdict}\u0000${(r.message ?? "").replace(NUMBER, "#")}`;
  const rows: HTMLElement[] = [];
  for (let i = 0; i < tests.length;) {
    let j = i + 1;
    while (j < tests.length && key(tests[j]) === key(tests[i])) j++;
    const run = tests.slice(i, j);
    if (run.length === 1) {
      rows.push(testRow(run[0]));
    } else {
      const first = run[0];
      const failed = first.verdict !== "AC" && first.verdict !== "NR";
      const same = run.every((r) => r.message === first.message) ? t("sameOnMore") : t("sameOtherValuesOnMore");
      const message = failed ? `${first.message} (${same.replace("{n}", String(run.length - 1))})` : first.message;
      rows.push(h("tr", { class: first.verdict === "AC" ? "grouped" : "failed grouped", dataset: { test: first.name } },
                  h("td", { class: "mono" }, `${first.name} … ${run[run.length - 1].name}`),
                  h("td", null, verdictBadge(first.verdict)),
                  h("td", { class: "message" }, withCode(message ?? ""), h("span", { class: "muted" },
                    ` · ${t("testsCount").replace("{n}", String(run.length))}`)),
                  h("td", { class: "num" }, "")));
    }
    i = j;
  }
  return rows;
}

/** The whole result of a done submission (or what is known so far of one still being judged). */
export function renderSubmissionResult(panel: HTMLElement, sub: SubmissionOut): void {
  const result = sub.result;
  const compile = result?.compile ?? sub.compile;
  const tests = result?.tests ?? sub.tests;
  const passed = tests.filter((x) => x.verdict === "AC").length;
  const head = h("div", { class: "result-head" }, verdictBadge(sub.verdict, sub.status),
                 h("strong", { class: "verdict-name" }, sub.verdict ? verdictName(sub.verdict) : t(sub.status)),
                 tests.length ? h("span", { class: "muted" }, `${passed} / ${tests.length} ${t("testsPassed")}`) : null);
  const failing = tests.find((x) => x.verdict !== "AC");
  replace(panel, h("section", { class: "result done", dataset: { submission: String(sub.id), verdict: sub.verdict ?? "" } },
    head,
    (result?.message || sub.message) ? h("p", { class: "result-message" }, withCode(result?.message || sub.message || "")) : null,
    compile && !compile.ok ? compileSection(compile) : null,
    failing ? failureSection(failing) : null,
    result?.smaller_failure ? failureSection(result.smaller_failure, t("alsoFailsAt")) : null,
    tests.length ? h("div", { class: "test-dots" }, tests.map((x) => h("span", { class: `dot verdict-${x.verdict}`,
                                                                               title: `${x.name}: ${x.verdict}` }))) : null,
    tests.length ? h("details", { class: "tests", open: tests.length <= 12 },
                     h("summary", null, `${t("tests")} (${tests.length})`),
                     testTable(h("tbody", null, groupedRows(tests)))) : null,
    result ? consoleSection(result) : null,
    result ? timingSection(result, sub.mode) : null,
    result?.hints ? hintsSection(result.hints) : null,
    result ? metaSection(result) : null));
}

/** What the program printed: per test its kernel printf and the run process's stdout and stderr, then what the
 *  process wrote outside the tests; open when there is any. */
function consoleSection(result: Result): HTMLElement {
  const output = result.output ?? [];
  const printfLabel = result.backend === "gpu" ? t("consoleGpuPrintf") : t("consolePrintf");
  const blocks = result.tests.flatMap((test) => [
    ...(test.printf ? [consoleBlock(test.name, printfLabel, test.printf)] : []),
    ...output.filter((part) => part.test === test.name).map((part) => consoleBlock(test.name, t("consoleOutput"), part.text)),
  ]).concat(output.filter((part) => part.test === null).map((part) => consoleBlock(null, t("consoleOutsideTests"), part.text)));
  return h("details", { class: "console", open: blocks.length > 0 },
    h("summary", null, t("console")),
    blocks.length ? [result.backend === "cpu" ? h("p", { class: "muted small" }, t("consoleNote")) : null, blocks]
                  : h("p", { class: "muted empty" }, t("consoleEmpty")));
}

/** One printed text in monospace; the judge's closing line of a cut text ("… N bytes more") in words. */
function consoleBlock(test: string | null, label: string, text: string): HTMLElement {
  const cut = /\n?… (\d+) bytes more$/.exec(text);
  return h("div", { class: "console-block", dataset: { test: test ?? "" } },
    h("h4", null, test ? h("span", { class: "mono" }, test) : null, test ? " · " : null, h("span", { class: "muted" }, label)),
    h("pre", { class: "log" }, cut ? text.slice(0, cut.index) : text,
      cut ? h("span", { class: "cut muted" }, `${cut.index ? "\n" : ""}${t("bytesMore").replace("{n}", cut[1])}`) : null));
}

function compileSection(info: CompileInfo): HTMLElement {
  return h("div", { class: "card compile-errors" },
    h("h3", null, t("compileFailed")),
    h("ul", { class: "diagnostics" }, info.diagnostics.map(diagnosticItem)),
    info.log ? h("details", null, h("summary", null, "log"), h("pre", { class: "log" }, info.log)) : null);
}

function diagnosticItem(d: Diagnostic): HTMLElement {
  const where = d.line ? `${d.file}:${d.line}${d.column ? ":" + d.column : ""}` : d.file;
  return h("li", { class: `diag ${d.severity}` },
    h("div", null, h("span", { class: "mono where" }, where), " ", h("span", { class: `sev ${d.severity}` }, d.severity),
      " ", d.message),
    d.source_line ? h("pre", { class: "source-line" }, d.source_line +
      (d.column ? "\n" + " ".repeat(Math.max(0, d.column - 1)) + "^" : "")) : null);
}

/** A failing test, or (with `heading`) the smallest failing input the judge found after it. */
function failureSection(test: TestResult, heading?: string): HTMLElement {
  const m = test.first_mismatch;
  const size = Object.entries(test.size).map(([k, v]) => `${k} = ${v}`).join(", ");
  return h("div", { class: heading ? "card failure smaller" : "card failure" },
    heading ? h("h3", null, verdictBadge(test.verdict), ` ${heading} `, h("span", { class: "mono" }, size),
                h("span", { class: "muted" }, ` (${test.distribution})`))
      : h("h3", null, verdictBadge(test.verdict), " ", h("span", { class: "mono" }, test.name)),
    test.message ? h("p", { class: "message" }, withCode(test.message)) : null,
    m ? h("dl", { class: "mismatch" },
          h("dt", null, t("output")), h("dd", { class: "mono" }, m.output),
          h("dt", null, t("index")), h("dd", { class: "mono", dataset: { field: "index" } }, String(m.index)),
          h("dt", null, t("expected")), h("dd", { class: "mono expected", dataset: { field: "expected" } }, m.expected),
          h("dt", null, t("got")), h("dd", { class: "mono got", dataset: { field: "got" } }, m.got),
          h("dt", null, t("wrongElements")), h("dd", null, `${m.count.toLocaleString()} / ${m.total.toLocaleString()}`))
      : null,
    m && m.expected_window.length ? mismatchWindow(m) : null,
    test.inputs_shown ? inputsShown(test.inputs_shown, m?.index ?? null) : null);
}

/** Expected and got side by side around the first mismatch: its column marked, every differing cell too. */
function mismatchWindow(m: Mismatch): HTMLElement {
  const columns = m.expected_window.map((_, k) => m.window_start + k);
  const cell = (value: string, k: number) =>
    h("td", { class: ["mono", columns[k] === m.index ? "first" : "", value !== m.expected_window[k] ? "differs" : ""].join(" ") }, value);
  return h("div", { class: "mismatch-window" }, h("table", { class: "table compact window" },
    h("thead", null, h("tr", null, h("th", null, `${m.output}[i]`),
      columns.map((i) => h("th", { class: i === m.index ? "mono first" : "mono" }, String(i))))),
    h("tbody", null,
      h("tr", { class: "expected-row" }, h("th", null, t("expected")), m.expected_window.map((v, k) => h("td", { class: columns[k] === m.index ? "mono first" : "mono" }, v))),
      h("tr", { class: "got-row" }, h("th", null, t("got")), m.got_window.map(cell)))));
}

/** A failing test's inputs: small arrays in full (the first mismatch's index marked), large ones by their
 * ends and length, scalars as values. */
function inputsShown(inputs: Record<string, unknown[] | number | ArraySummary>, highlight: number | null): HTMLElement {
  const shown = (values: unknown[] | number | ArraySummary) => {
    if (Array.isArray(values)) {
      return h("span", { class: "mono values" }, "[", values.map((v, i) =>
        [i ? ", " : "", h("span", { class: i === highlight && values.length > 1 ? "hl" : "" }, String(v))]), "]");
    }
    if (typeof values === "number") return h("span", { class: "mono values scalar" }, String(values));
    return h("span", { class: "mono values summary" }, `[${values.first.join(", ")}, …, ${values.last.join(", ")}]`,
      h("span", { class: "muted" }, ` (${values.size.toLocaleString()} ${t("valuesCount")})`));
  };
  return h("div", { class: "inputs" }, h("h4", null, t("input")),
    Object.entries(inputs).map(([name, values]) => h("div", { class: "array" }, h("span", { class: "mono name" }, `${name} =`),
      shown(values))));
}

/** A judge message with its `code spans` shown as code. */
export function withCode(message: string): (string | HTMLElement)[] {
  return message.split(/`([^`\n]+)`/).map((part, k) => (k % 2 ? h("code", null, part) : part));
}

function timingSection(result: Result, mode: string): HTMLElement | null {
  if (result.timing) return timingDetails(result.timing, result.device);
  if (result.verdict !== "AC" || mode !== "submit") return null;
  const why = result.notes.find((n) => /timing/i.test(n)) ?? result.notes[0] ?? "";
  return h("div", { class: "card timing absent" }, h("h3", null, t("timing")),
           h("p", { class: "muted" }, `${t("timingAbsent")} (${result.backend})${why ? ": " + why : ""}`));
}

function timingDetails(timing: Timing, device: string | null): HTMLElement {
  const fig = (label: string, value: string) => h("div", { class: "figure" }, h("div", { class: "label" }, label),
                                                 h("div", { class: "value" }, value));
  const totalKernel = timing.per_kernel.reduce((sum, k) => sum + k.total_us, 0);
  return h("div", { class: "card timing" },
    h("h3", null, t("timing"), device ? h("span", { class: "muted device" }, ` · ${device}`) : null,
      timing.noisy ? h("span", { class: "badge warn" }, t("noisy")) : null),
    h("div", { class: "figures" },
      fig(t("median"), formatUs(timing.median_us)), fig(t("minimum"), formatUs(timing.min_us)),
      fig(t("iqr"), formatUs(timing.iqr_us)), fig(t("samples"), String(timing.samples)),
      timing.gbps !== null ? fig(t("bandwidth"), `${timing.gbps.toFixed(0)} GB/s`) : null,
      timing.sol_pct !== null ? fig(t("speedOfLight"), `${timing.sol_pct.toFixed(0)}%`) : null,
      timing.baseline_us !== null ? fig(t("baseline"), formatUs(timing.baseline_us)) : null,
      timing.ratio_to_baseline !== null ? fig(t("vsBaseline"), `${timing.ratio_to_baseline.toFixed(2)}×`) : null),
    timing.per_case.length ? [h("h4", null, t("perCase")), h("div", { class: "chart" }, timingChart(timing.per_case)),
      h("table", { class: "table compact per-case" },
        h("thead", null, h("tr", null, [t("test"), t("median"), t("minimum"), t("iqr"), t("bandwidth"), t("speedOfLight"),
                                          t("baseline")].map((x, i) => h("th", { class: i ? "num" : "" }, x)))),
        h("tbody", null, timing.per_case.map((c) => {
          const sol = speedOfLightUs(c);
          const batched = c.calls_per_sample > 1
            ? h("div", { class: "muted small" }, t("batchedCall").replace("{n}", String(c.calls_per_sample))
                .replace("{single}", c.single_call_us !== null ? formatUs(c.single_call_us) : "—"))
            : null;
          return h("tr", null, h("td", { class: "mono" }, caseLabel(c)), h("td", { class: "num" }, formatUs(c.median_us), batched),
            h("td", { class: "num" }, formatUs(c.min_us)), h("td", { class: "num" }, formatUs(c.iqr_us)),
            h("td", { class: "num" }, c.gbps !== null ? `${c.gbps.toFixed(0)} GB/s` : "—"),
            h("td", { class: "num" }, sol !== null ? `${formatUs(sol)} (${c.sol_pct!.toFixed(0)}%)` : "—"),
            h("td", { class: "num" }, c.baseline_us !== null ? formatUs(c.baseline_us) : "—",
              c.baseline_age_s !== null && c.baseline_age_s !== undefined
                ? h("div", { class: "muted small baseline-age" },
                    t("baselineTimedAgo").replace("{m}", String(Math.round(c.baseline_age_s / 60))))
                : null));
        })))] : null,
    timing.per_kernel.length ? [h("h4", null, t("perKernel")),
      h("table", { class: "table compact per-kernel" },
        h("thead", null, h("tr", null, [t("kernel"), t("grid"), t("block"), t("sharedMem"), t("calls"), t("total"), t("share")]
          .map((x, i) => h("th", { class: i ? "num" : "" }, x)))),
        h("tbody", null, timing.per_kernel.map((k) => h("tr", null,
          h("td", { class: "mono" }, k.kernel), h("td", { class: "num mono" }, k.grid.join("×")),
          h("td", { class: "num mono" }, k.block.join("×")), h("td", { class: "num" }, `${k.shared_bytes} B`),
          h("td", { class: "num" }, String(k.calls)), h("td", { class: "num" }, formatUs(k.total_us)),
          h("td", { class: "num" }, h("span", { class: "share" },
            h("span", { class: "share-bar", style: `width:${totalKernel ? (100 * k.total_us) / totalKernel : 0}%` }),
            `${totalKernel ? ((100 * k.total_us) / totalKernel).toFixed(0) : 0}%`))))))] : null);
}

function hintsSection(hints: PerformanceHints): HTMLElement | null {
  if (!hints.accesses.length && !hints.kernels.length) return null;
  const bytes = (n: number) => n >= 1e6 ? `${(n / 1e6).toPrecision(3)} MB` : n >= 1e3 ? `${(n / 1e3).toPrecision(3)} kB` : `${n} B`;
  return h("div", { class: "card hints" },
    h("h3", null, t("hints")), h("p", { class: "muted" }, t("hintsNote")),
    hints.accesses.length ? h("table", { class: "table compact hints-table" },
      h("thead", null, h("tr", null, [t("kernel"), t("line"), t("access"), t("requests"), t("lanes"), t("sectors"),
                                       t("bankWays"), t("hint")].map((x, i) => h("th", { class: i && i < 7 ? "num" : "" }, x)))),
      h("tbody", null, hints.accesses.map((a) => h("tr", { class: a.hint ? "flagged" : "" },
        h("td", { class: "mono" }, a.kernel), h("td", { class: "num" }, a.line !== null ? String(a.line) : "—"),
        h("td", { class: "num" }, `${a.space} ${a.access}`), h("td", { class: "num" }, String(a.requests)),
        h("td", { class: "num" }, `${a.lanes_active.toFixed(1)} / ${a.lanes_present.toFixed(0)}`),
        h("td", { class: "num" }, a.sectors_per_request !== null
          ? `${a.sectors_per_request.toFixed(1)} (${a.fewest_sectors_per_request!.toFixed(1)})` : "—"),
        h("td", { class: "num" }, a.bank_ways !== null ? `${a.bank_ways.toFixed(1)} (${a.worst_bank_ways})` : "—"),
        h("td", { class: a.hint ? "hint warn" : "hint ok" }, a.hint || "ok"))))) : null,
    hints.kernels.map((k) => h("p", { class: "estimate muted" }, h("strong", null, `${t("estimate")}: `),
      h("span", { class: "mono" }, k.kernel), " ",
      t("estimateText").replace("{bytes}", bytes(k.bytes)).replace("{test}", k.test)
        .replace("{us}", formatUs(k.lower_bound_us)).replace("{reference}", hints.reference))));
}

function metaSection(result: Result): HTMLElement {
  const row = (label: string, value: string) => [h("dt", null, label), h("dd", null, value)];
  return h("details", { class: "meta" }, h("summary", null, t("notes")),
    h("dl", { class: "kv" },
      row(t("backend"), result.backend), result.device ? row(t("device"), result.device) : null,
      row(t("seed"), String(result.seed)), row(t("isolation"), result.isolation.join(", ") || "—"),
      result.phases?.length ? row(t("judgeTime"), phasesText(result.phases)) : null,
      result.notes.map((n) => row(t("notes"), n)), row("judge", result.judge_version)));
}

/** Where the judge's wall time went, e.g. "2.31 s: build 0.07 s · solve() calls 1.20 s · …". */
function phasesText(phases: PhaseTime[]): string {
  const total = phases.reduce((sum, p) => sum + p.seconds, 0);
  const parts = phases.filter((p) => p.seconds >= 0.005).map((p) => `${p.name} ${p.seconds.toFixed(2)} s`);
  return `${total.toFixed(2)} s: ${parts.join(" · ")}`;
}
