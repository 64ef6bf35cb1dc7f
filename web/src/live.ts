// The live view of a submission being judged: the phase (queued, compiling, testing, …), the test
// running now, tests done and left, the time elapsed, each finished test as it arrives, and, while the
// event stream is down, that it is reconnecting; then the finished result.
import { api, NetworkError } from "./api";
import { h, replace } from "./dom";
import { followEvents } from "./events";
import { type Key, t } from "./i18n";
import { renderSubmissionResult, testRow, testTable, verdictBadge } from "./result";
import type { CompileInfo, Status, SubmissionOut, TestResult } from "./types";

export interface Follow {
  onCompile?: (info: CompileInfo) => void;
  /** The judge ended: the finished submission, or null when it could not be read. */
  onDone?: (submission: SubmissionOut | null) => void;
}

type Phase = "queued" | "starting" | "compiling" | "testing" | "shrinking" | "timing";

/** The events stream's `progress`: the seconds are by the server's clock, as of sending. */
interface Progress { phase: Phase; test: string | null; index: number | null; elapsed_s: number; phase_s: number }

const PHASES: Record<Phase, Key> = {
  queued: "phaseQueued", starting: "phaseStarting", compiling: "phaseCompiling", testing: "phaseTesting",
  shrinking: "phaseShrinking", timing: "phaseTiming",
};
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 15_000;

/** Follows a submission's events into `panel`; returns a function that stops following. */
export function followSubmission(panel: HTMLElement, submission: SubmissionOut, expectedTests: number | null,
                                 hooks: Follow = {}): () => void {
  const live = new LiveView(panel, submission, expectedTests);
  let stopped = false;
  const end = (done: SubmissionOut | null, error?: Error) => {
    live.stop();
    if (done) renderSubmissionResult(panel, done);
    else replace(panel, h("div", { class: "alert error" }, error?.message ?? ""));
    hooks.onDone?.(done);
  };
  // the verdict is in: read the whole result, waiting for the server while it cannot be reached
  const finish = async () => {
    for (let pause = FIRST_RETRY_MS; !stopped; pause = Math.min(2 * pause, MAX_RETRY_MS)) {
      try {
        const done = await api.submission(submission.id);
        if (!stopped) end(done);
        return;
      } catch (error) {
        if (!(error instanceof NetworkError)) return end(null, error as Error);
        live.connection(false);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  };
  const stopEvents = followEvents(`/api/submissions/${submission.id}/events`, {
    onEvent: (event, data) => {
      const body = data as Record<string, unknown>;
      if (event === "status") live.status(body.status as Status);
      else if (event === "progress") live.progress(body as unknown as Progress);
      else if (event === "restart") live.restart();
      else if (event === "test") live.test(body.result as TestResult);
      else if (event === "compile") {
        live.compile(body as unknown as CompileInfo);
        hooks.onCompile?.(body as unknown as CompileInfo);
      } else if (event === "done") {
        stopEvents();
        void finish();
      }
    },
    onConnection: (connected) => live.connection(connected),
    onRefused: (error) => end(null, error),
  });
  return () => {
    stopped = true;
    stopEvents();
    live.stop();
  };
}

class LiveView {
  private readonly header: HTMLElement;
  private readonly phaseLine: HTMLElement;
  private readonly elapsed: HTMLElement;
  private readonly lost: HTMLElement;
  private readonly compileLine: HTMLElement;
  private readonly progressBar: HTMLProgressElement;
  private readonly counter: HTMLElement;
  private readonly dots: HTMLElement;
  private readonly rows: HTMLElement;
  private readonly ticker: number;
  private seen = 0;
  private compiled = false;   // the build's outcome is shown: a late "compiling" progress does not replace it
  private current: Progress;
  private began = performance.now();         // when the elapsed time was 0, on this page's clock
  private phaseBegan = performance.now();

  constructor(panel: HTMLElement, private readonly submission: SubmissionOut, private readonly expected: number | null) {
    this.header = h("div", { class: "result-head" });
    this.phaseLine = h("span", { class: "live-phase" });
    this.elapsed = h("span", { class: "live-elapsed mono", title: t("elapsed") });
    this.lost = h("div", { class: "alert error live-connection", role: "status", hidden: true }, t("connectionLost"));
    this.compileLine = h("div", { class: "muted compile-line" });
    this.progressBar = h("progress", { max: expected ?? 1, value: 0 });
    this.counter = h("span", { class: "muted counter" });
    this.dots = h("div", { class: "test-dots", "aria-label": t("tests") });
    this.rows = h("tbody");
    replace(panel, h("section", { class: "result live", dataset: { submission: String(submission.id) } },
                     this.header, this.lost,
                     h("div", { class: "live-status" }, this.phaseLine, h("span", { class: "grow" }), this.elapsed),
                     this.compileLine, h("div", { class: "progress-row" }, this.progressBar, this.counter),
                     this.dots, testTable(this.rows)));
    this.current = { phase: submission.status === "queued" ? "queued" : "starting", test: null, index: null,
                     elapsed_s: 0, phase_s: 0 };
    this.status(submission.status);
    this.showPhase();
    this.update();
    this.ticker = window.setInterval(() => this.tick(), 1000);
  }

  stop(): void {
    clearInterval(this.ticker);
  }

  status(status: Status): void {
    replace(this.header, verdictBadge(null, status), h("span", { class: "muted" },
            `#${this.submission.id} · ${this.submission.mode === "run" ? t("runMode") : t("submitMode")}`));
  }

  progress(progress: Progress): void {
    const now = performance.now();
    this.current = progress;
    this.began = now - progress.elapsed_s * 1000;
    this.phaseBegan = now - progress.phase_s * 1000;
    if (progress.phase === "compiling" && !this.compiled) replace(this.compileLine, t("compiling"));
    this.showPhase();
    this.tick();
  }

  connection(connected: boolean): void {
    this.lost.hidden = connected;
  }

  restart(): void {
    this.seen = 0;
    this.dots.replaceChildren();
    this.rows.replaceChildren();
    this.compiled = false;
    replace(this.compileLine, "");
    this.update();
  }

  compile(info: CompileInfo): void {
    this.compiled = true;
    replace(this.compileLine, info.ok ? `${t("compiled")}${info.seconds !== null ? ` (${info.seconds.toFixed(1)} s)` : ""}`
                                      : t("compileFailed"));
  }

  test(result: TestResult): void {
    this.seen += 1;
    this.dots.append(h("span", { class: `dot verdict-${result.verdict}`, title: `${result.name}: ${result.verdict}` }));
    this.rows.append(testRow(result));
    this.update();
  }

  private showPhase(): void {
    const { phase, test } = this.current;
    this.phaseLine.dataset.phase = phase;
    replace(this.phaseLine, h("strong", null, t(PHASES[phase])),
            test ? [" ", h("span", { class: "mono live-test" }, test), " ", h("span", { class: "muted live-test-time" })]
                 : null);
  }

  private tick(): void {
    const now = performance.now();
    replace(this.elapsed, `${clock(now - this.began)} ${t("elapsed")}`);
    const testTime = this.phaseLine.querySelector(".live-test-time");
    if (testTime) testTime.textContent = `(${clock(now - this.phaseBegan)})`;
  }

  private update(): void {
    this.progressBar.value = this.seen;
    if (this.expected !== null && this.seen > this.expected) this.progressBar.max = this.seen;
    const left = this.expected !== null ? Math.max(0, this.expected - this.seen) : null;
    replace(this.counter, `${this.seen}${this.expected !== null ? ` / ${this.expected}` : ""} ${t("tests")}`,
            left !== null ? ` · ${left} ${t("testsLeft")}` : "");
  }
}

/** mm:ss of a duration in milliseconds. */
function clock(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
}
