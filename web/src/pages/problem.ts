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
  const starter = problem.starter ?? "";
  const user = currentUser();
  const resultPanel = h("div", { class: "result-panel" }, h("p", { class: "muted empty" }, t("noResultYet")));
  const saved = h("span", { class: "muted small saved" });
  let stop: (() => void) | null = null;
  onLeave(() => stop?.());

  const editorHost = h("div", { class: "editor-host" });
  const newer = h("div", { class: "draft-newer", hidden: true });
  const draftStates: Record<DraftState, string> = { local: t("savedLocally"), saving: t("draftSaving"),
                                                    saved: t("draftSaved"), offline: t("draftOffline") };
  const draft = new DraftSync(problem.id, !!user, (state) => replace(saved, draftStates[state]), (found) => {
    newer.hidden = false;
    replace(newer, h("span", null, t("newerDraft")),
      h("button", { type: "button", class: "button", onclick: () => {
        draft.adopt(found);
        setText(view, found.source);
        newer.hidden = true;
      } }, t("loadNewerDraft")),
      h("button", { type: "button", class: "button ghost", onclick: () => {
        draft.overwrite(found, view.state.doc.toString());
        newer.hidden = true;
      } }, t("keepMyDraft")));
  });
  onLeave(() => draft.stop());
  const view: EditorView = createEditor(editorHost, await draft.initial(starter), (text) => draft.edited(text),
                                        { run: () => run.click(), submit: () => submit.click() });   // clicks: a disabled button does nothing

  const show = (sub: SubmissionOut) => {
    stop?.();
    sessionStorage.setItem(LAST_KEY + problem.id, String(sub.id));
    const link = h("a", { href: `/submissions/${sub.id}`, class: "small" }, `${t("viewDetails")} →`);
    const panel = h("div");
    replace(resultPanel, h("div", { class: "panel-head" }, h("h2", null, t("latest")), link), panel);
    if (sub.status === "done") {
      renderSubmissionResult(panel, sub);
      if (sub.result?.compile) showDiagnostics(view, sub.result.compile.diagnostics);
      setBusy(false);
      return;
    }
    setBusy(true);   // until its verdict: no second judge of the same code
    stop = followSubmission(panel, sub, expectedTests(problem, sub.mode, health.backend), {
      onCompile: (info) => showDiagnostics(view, info.diagnostics),
      onDone: () => setBusy(false),
    });
  };

  /** This user's judge of this problem still queued or running (from a reload, another tab, the command line). */
  const runningJudge = async (): Promise<SubmissionOut | null> => {
    const { items } = await api.submissions({ problem: problem.id, mine: true, status: ["queued", "judging"], limit: 1 });
    return items.length ? api.submission(items[0].id) : null;
  };

  const buttons: HTMLButtonElement[] = [];
  let busy = false;
  const setBusy = (value: boolean) => {
    busy = value;
    buttons.forEach((b) => { b.disabled = busy || !user; });
  };
  const send = async (mode: Mode) => {
    setBusy(true);
    showDiagnostics(view, []);
    try {
      const running = await runningJudge();
      if (running) {
        show(running);
        resultPanel.prepend(h("div", { class: "alert info still-judging" }, t("stillJudging")));
        return;
      }
      show(await api.submit(problem.id, view.state.doc.toString(), mode));
    } catch (error) {
      setBusy(false);
      replace(resultPanel, h("div", { class: "alert error" }, (error as Error).message));
    }
  };
  const run = h("button", { type: "button", class: "button", title: `${t("runHint")} (${shortcutLabel("run")})`,
                            disabled: !problem.has_samples, onclick: () => send("run") }, "▶ ", t("run"));
  const submit = h("button", { type: "button", class: "button primary", title: `${t("submitHint")} (${shortcutLabel("submit")})`,
                               onclick: () => send("submit") }, t("submit"));
  buttons.push(submit, ...(problem.has_samples ? [run] : []));
  setBusy(false);
  const reset = h("button", { type: "button", class: "button ghost", onclick: () => {
    if (!confirm(t("resetConfirm"))) return;
    setText(view, starter);
    void draft.clear();   // after setText, whose change listener saves a draft
    replace(saved, "");
    showDiagnostics(view, []);
  } }, "↺ ", t("reset"));

  replace(outlet,
    problemHeader(problem, "problem"),
    h("div", { class: "workspace" },
      statementView(problem),
      h("section", { class: "card editor-card" },
        h("div", { class: "editor-toolbar" }, h("span", { class: "mono filename" }, "solution.cu"), saved,
          h("span", { class: "grow" }), reset, run, submit),
        newer,
        editorHost,
        user ? null : h("div", { class: "alert info" }, h("a", { href: `/login?next=/problems/${problem.id}` }, t("signIn")),
                                                          " — ", t("signInToRun")),
        resultPanel)));

  // a judge started in another tab while this one was in the background
  const onVisible = () => {
    if (document.visibilityState !== "visible" || busy || !user) return;
    runningJudge().then((running) => running && show(running), () => undefined);   // offline: the next Run says so
  };
  document.addEventListener("visibilitychange", onVisible);
  onLeave(() => document.removeEventListener("visibilitychange", onVisible));

  const last = Number(sessionStorage.getItem(LAST_KEY + problem.id));
  const running = user ? await runningJudge() : null;
  if (running) show(running);
  else if (user && last) {
    try {
      show(await api.submission(last));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      sessionStorage.removeItem(LAST_KEY + problem.id);
    }
  }
}
