// The problem page: the statement beside the editor; Run (sample tests) and Submit (every test, then
// timing) with live results under the editor.
import type { EditorView } from "@codemirror/view";
import { api, ApiError } from "../api";
import { h, replace } from "../dom";
import { DraftSync, type DraftState } from "../drafts";
import { createEditor, setText, shortcutLabel, showDiagnostics } from "../editor";
import { t } from "../i18n";
import { followSubmission } from "../live";
import { renderSubmissionResult } from "../result";
import { onLeave } from "../router";
import { currentUser } from "../session";
import type { Mode, ProblemDetail, SubmissionOut } from "../types";
import { difficultyBadge, problemTitle } from "./problems";
import { statementView } from "./statement";

const LAST_KEY = "cudajudge.last.";   // sessionStorage: the latest submission shown under the editor

export function problemTabs(problem: ProblemDetail | { id: number }, active: "problem" | "history" | "leaderboard"): HTMLElement {
  const tab = (key: typeof active, href: string, label: string) =>
    h("a", { href, class: key === active ? "active" : "" }, label);
  return h("nav", { class: "tabs" }, tab("problem", `/problems/${problem.id}`, t("problem")),
           tab("history", `/problems/${problem.id}/submissions`, t("history")),
           tab("leaderboard", `/problems/${problem.id}/leaderboard`, t("leaderboard")));
}

export function problemHeader(problem: ProblemDetail, active: "problem" | "history" | "leaderboard"): HTMLElement {
  return h("div", { class: "problem-head" },
    h("div", { class: "title-row" }, h("span", { class: "muted pid" }, `#${problem.id}`), h("h1", null, problemTitle(problem)),
      difficultyBadge(problem.difficulty), problem.solved ? h("span", { class: "badge verdict-AC" }, `✓ ${t("solved")}`) : null),
    h("div", { class: "tags" }, problem.tags.map((tag) => h("a", { class: "chip", href: `/problems?tag=${encodeURIComponent(tag)}` }, tag))),
    problemTabs(problem, active));
}

/** How many tests a mode judges on this server's backend (GPU-only tests are skipped on the CPU). */
function expectedTests(problem: ProblemDetail, mode: Mode, backend: string): number {
  return problem.tests.filter((g) => (mode === "submit" || g.sample) && !(backend === "cpu" && g.gpu_only))
    .reduce((n, g) => n + g.cases.length, 0);
}

export async function problemPage(outlet: HTMLElement, params: Record<string, string>): Promise<void> {
  const [problem, health] = await Promise.all([api.problem(params.id), api.health()]);
  const user = currentUser();
  const saved = h("span", { class: "muted small saved" });
  const newer = h("div", { class: "draft-newer", hidden: true });
  const editorHost = h("div", { class: "editor-host" });
  const starter = problem.starter ?? "";
  const draft = draftSync(problem, !!user, saved, newer, () => workspace.view);
  onLeave(() => draft.stop());
  const workspace = new JudgeWorkspace(problem, health.backend, !!user);
  workspace.view = createEditor(editorHost, await draft.initial(starter), (text) => draft.edited(text),
                                { run: () => workspace.run.click(), submit: () => workspace.submit.click() });   // clicks: a disabled button does nothing
  const reset = h("button", { type: "button", class: "button ghost", onclick: () => {
    if (!confirm(t("resetConfirm"))) return;
    setText(workspace.view, starter);
    void draft.clear();   // after setText, whose change listener saves a draft
    replace(saved, "");
    showDiagnostics(workspace.view, []);
  } }, "↺ ", t("reset"));

  replace(outlet,
    problemHeader(problem, "problem"),
    h("div", { class: "workspace" },
      statementView(problem),
      h("section", { class: "card editor-card" },
        h("div", { class: "editor-toolbar" }, h("span", { class: "mono filename" }, "solution.cu"), saved,
          h("span", { class: "grow" }), reset, workspace.run, workspace.submit),
        newer,
        editorHost,
        user ? null : h("div", { class: "alert info" }, h("a", { href: `/login?next=/problems/${problem.id}` }, t("signIn")),
                                                          " — ", t("signInToRun")),
        workspace.resultPanel)));
  workspace.followOtherTabs();
  await workspace.resume();
}

/** The draft of this problem's editor, saved as it changes; a newer draft from elsewhere is offered in `newer`. */
function draftSync(problem: ProblemDetail, signedIn: boolean, saved: HTMLElement, newer: HTMLElement,
                   view: () => EditorView): DraftSync {
  const states: Record<DraftState, string> = { local: t("savedLocally"), saving: t("draftSaving"),
                                               saved: t("draftSaved"), offline: t("draftOffline") };
  const draft: DraftSync = new DraftSync(problem.id, signedIn, (state) => replace(saved, states[state]), (found) => {
    newer.hidden = false;
    replace(newer, h("span", null, t("newerDraft")),
      h("button", { type: "button", class: "button", onclick: () => {
        draft.adopt(found);
        setText(view(), found.source);
        newer.hidden = true;
      } }, t("loadNewerDraft")),
      h("button", { type: "button", class: "button ghost", onclick: () => {
        draft.overwrite(found, view().state.doc.toString());
        newer.hidden = true;
      } }, t("keepMyDraft")));
  });
  return draft;
}

/** Run and Submit, and the result panel under the editor: one judge at a time, followed live. */
class JudgeWorkspace {
  view!: EditorView;
  readonly resultPanel = h("div", { class: "result-panel" }, h("p", { class: "muted empty" }, t("noResultYet")));
  readonly run: HTMLButtonElement;
  readonly submit: HTMLButtonElement;
  private readonly buttons: HTMLButtonElement[];
  private busy = false;
  private stop: (() => void) | null = null;

  constructor(private readonly problem: ProblemDetail, private readonly backend: string,
              private readonly signedIn: boolean) {
    onLeave(() => this.stop?.());
    this.run = h("button", { type: "button", class: "button", title: `${t("runHint")} (${shortcutLabel("run")})`,
                             disabled: !problem.has_samples, onclick: () => this.send("run") }, "▶ ", t("run"));
    this.submit = h("button", { type: "button", class: "button primary",
                                title: `${t("submitHint")} (${shortcutLabel("submit")})`,
                                onclick: () => this.send("submit") }, t("submit"));
    this.buttons = [this.submit, ...(problem.has_samples ? [this.run] : [])];
    this.setBusy(false);
  }

  private setBusy(value: boolean): void {
    this.busy = value;
    this.buttons.forEach((b) => { b.disabled = this.busy || !this.signedIn; });
  }

  /** This user's judge of this problem still queued or running (from a reload, another tab, the command line). */
  private async runningJudge(): Promise<SubmissionOut | null> {
    const { items } = await api.submissions({ problem: this.problem.id, mine: true, status: ["queued", "judging"], limit: 1 });
    return items.length ? api.submission(items[0].id) : null;
  }

  private show(sub: SubmissionOut): void {
    this.stop?.();
    sessionStorage.setItem(LAST_KEY + this.problem.id, String(sub.id));
    const link = h("a", { href: `/submissions/${sub.id}`, class: "small" }, `${t("viewDetails")} →`);
    const panel = h("div");
    replace(this.resultPanel, h("div", { class: "panel-head" }, h("h2", null, t("latest")), link), panel);
    if (sub.status === "done") {
      renderSubmissionResult(panel, sub);
      if (sub.result?.compile) showDiagnostics(this.view, sub.result.compile.diagnostics);
      this.setBusy(false);
      return;
    }
    this.setBusy(true);   // until its verdict: no second judge of the same code
    this.stop = followSubmission(panel, sub, expectedTests(this.problem, sub.mode, this.backend), {
      onCompile: (info) => showDiagnostics(this.view, info.diagnostics),
      onDone: () => this.setBusy(false),
    });
  }

  private async send(mode: Mode): Promise<void> {
    this.setBusy(true);
    showDiagnostics(this.view, []);
    try {
      const running = await this.runningJudge();
      if (running) {
        this.show(running);
        this.resultPanel.prepend(h("div", { class: "alert info still-judging" }, t("stillJudging")));
        return;
      }
      this.show(await api.submit(this.problem.id, this.view.state.doc.toString(), mode));
    } catch (error) {
      this.setBusy(false);
      replace(this.resultPanel, h("div", { class: "alert error" }, (error as Error).message));
    }
  }

  /** A judge started in another tab while this one was in the background is shown when it comes back. */
  followOtherTabs(): void {
    const onVisible = () => {
      if (document.visibilityState !== "visible" || this.busy || !this.signedIn) return;
      this.runningJudge().then((running) => running && this.show(running), () => undefined);   // offline: the next Run says so
    };
    document.addEventListener("visibilitychange", onVisible);
    onLeave(() => document.removeEventListener("visibilitychange", onVisible));
  }

  /** Under the editor: this user's judge still running, else the latest one this tab showed. */
  async resume(): Promise<void> {
    const last = Number(sessionStorage.getItem(LAST_KEY + this.problem.id));
    const running = this.signedIn ? await this.runningJudge() : null;
    if (running) this.show(running);
    else if (this.signedIn && last) {
      try {
        this.show(await api.submission(last));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        sessionStorage.removeItem(LAST_KEY + this.problem.id);
      }
    }
  }
}
