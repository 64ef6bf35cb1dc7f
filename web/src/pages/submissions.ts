// Submission history (a problem's, or all of them), one submission with its result and source, and a
// diff against an earlier submission of the same problem.
import { MergeView } from "@codemirror/merge";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { cpp } from "@codemirror/lang-cpp";
import { basicSetup } from "codemirror";
import { api } from "../api";
import { formatUs } from "../chart";
import { formatDate, h, replace } from "../dom";
import { draftReplacedBy, replaceDraft } from "../drafts";
import { codeStyle, createViewer } from "../editor";
import { t } from "../i18n";
import { followSubmission } from "../live";
import { renderSubmissionResult, verdictBadge } from "../result";
import { navigate, onLeave } from "../router";
import { currentUser, isInstructor } from "../session";
import type { SubmissionList, SubmissionSummary } from "../types";
import { problemHeader } from "./problem";

function signInFirst(outlet: HTMLElement): boolean {
  if (currentUser()) return false;
  replace(outlet, h("div", { class: "alert info" },
    h("a", { href: `/login?next=${encodeURIComponent(location.pathname)}` }, t("signIn")), " — ", t("signInToRun")));
  return true;
}

export async function historyPage(outlet: HTMLElement, params: Record<string, string>): Promise<void> {
  if (signInFirst(outlet)) return;
  const problem = params.id ? await api.problem(params.id) : null;
  const body = h("tbody");
  const more = h("button", { type: "button", class: "button ghost", hidden: true }, t("more"));
  const showUser = isInstructor();
  let before: number | undefined;
  const failure = h("div", { class: "alert error history-error", hidden: true });
  // a page that cannot be read (the connection dropped) says so under the table and offers to try again
  const load = async () => {
    failure.hidden = true;
    let page: SubmissionList;
    try {
      page = await api.submissions({ problem: problem?.id, before, limit: 50 });
    } catch (error) {
      replace(failure, (error as Error).message, " ",
              h("button", { type: "button", class: "button ghost small", onclick: () => void load() }, t("retry")));
      failure.hidden = false;
      return;
    }
    if (!page.items.length && before === undefined) {
      replace(body, h("tr", null, h("td", { colspan: 8, class: "empty" }, t("noSubmissions"))));
    }
    body.append(...page.items.map((s) => historyRow(s, showUser, !problem)));
    before = page.next_before ?? undefined;
    more.hidden = page.next_before === null;
  };
  more.addEventListener("click", () => void load());
  replace(outlet,
    problem ? problemHeader(problem, "history") : h("div", { class: "page-head" }, h("h1", null, t("submissions"))),
    h("div", { class: "card flush" }, h("table", { class: "table history" },
      h("thead", null, h("tr", null, h("th", { class: "num" }, "#"), problem ? null : h("th", null, t("problem")),
        showUser ? h("th", null, t("user")) : null, h("th", null, t("mode")), h("th", null, t("verdict")),
        h("th", null, t("message")), h("th", { class: "num" }, t("median")), h("th", null, t("submitted")))),
      body)),
    failure,
    h("div", { class: "center" }, more));
  await load();
}

function historyRow(s: SubmissionSummary, showUser: boolean, showProblem: boolean): HTMLElement {
  return h("tr", { dataset: { submission: String(s.id) } },
    h("td", { class: "num" }, h("a", { href: `/submissions/${s.id}` }, `#${s.id}`)),
    showProblem ? h("td", null, h("a", { href: `/problems/${s.problem_id}` }, s.problem)) : null,
    showUser ? h("td", null, s.user.username) : null,
    h("td", null, h("span", { class: `mode ${s.mode}` }, s.mode === "run" ? t("runMode") : t("submitMode"))),
    h("td", null, verdictBadge(s.verdict, s.status)),
    h("td", { class: "message muted" }, s.message ?? ""),
    h("td", { class: "num" }, s.median_us !== null ? formatUs(s.median_us) : ""),
    h("td", { class: "muted nowrap" }, formatDate(s.created_at)));
}

export async function submissionPage(outlet: HTMLElement, params: Record<string, string>): Promise<void> {
  if (signInFirst(outlet)) return;
  const sub = await api.submission(Number(params.id));
  const problem = await api.problem(sub.problem_id);
  const resultPanel = h("div");
  if (sub.status === "done") renderSubmissionResult(resultPanel, sub);
  else onLeave(followSubmission(resultPanel, sub, null));

  const diffHost = h("div", { class: "diff-host" });
  const sourceHost = h("div", { class: "viewer-host" });
  createViewer(sourceHost, sub.source);
  const earlier = (await api.submissions({ problem: sub.problem_id, before: sub.id, limit: 100 })).items
    .filter((s) => s.user.id === sub.user.id);
  let merge: MergeView | null = null;
  onLeave(() => merge?.destroy());
  const compare = h("select", { "aria-label": t("compareWith"), class: "compare", onchange: async (e: Event) => {
    merge?.destroy();
    merge = null;
    diffHost.replaceChildren();
    const id = Number((e.target as HTMLSelectElement).value);
    if (!id) { sourceHost.hidden = false; return; }
    const older = await api.submission(id);
    sourceHost.hidden = true;
    replace(diffHost, h("div", { class: "diff-labels" }, h("span", null, `${t("older")}: #${older.id}`),
                        h("span", null, `${t("thisOne")}: #${sub.id}`)));
    const readOnly = [basicSetup, cpp(), codeStyle(), EditorState.readOnly.of(true), EditorView.editable.of(false)];
    merge = new MergeView({ a: { doc: older.source, extensions: readOnly }, b: { doc: sub.source, extensions: readOnly },
                            parent: diffHost, collapseUnchanged: { margin: 3, minSize: 6 } });
  } }, h("option", { value: "" }, t("noCompare")),
    earlier.map((s) => h("option", { value: String(s.id) }, `#${s.id} · ${s.mode} · ${s.verdict ?? s.status} · ${formatDate(s.created_at)}`)));

  const actions = [
    h("button", { type: "button", class: "button ghost", onclick: async () => {
      const signedIn = currentUser() !== null;
      const replaced = await draftReplacedBy(sub.problem_id, sub.source, signedIn);
      if (replaced !== null && !confirm(t("replaceDraftConfirm"))) return;
      await replaceDraft(sub.problem_id, sub.source, signedIn);
      navigate(`/problems/${sub.problem_id}`);
    } }, t("openInEditor")),
    isInstructor() ? h("button", { type: "button", class: "button ghost", onclick: async (e: Event) => {
      const button = e.currentTarget as HTMLButtonElement;
      await api.rejudgeSubmission(sub.id);
      button.textContent = t("rejudgeQueued");
      navigate(location.pathname, true);
    } }, t("rejudge")) : null,
  ];
  replace(outlet,
    problemHeader(problem, "history"),
    h("div", { class: "submission-meta card" },
      h("h2", null, `#${sub.id}`), verdictBadge(sub.verdict, sub.status),
      h("span", null, sub.mode === "run" ? t("runMode") : t("submitMode")),
      h("span", { class: "muted" }, `${sub.user.username} · ${formatDate(sub.created_at)}`),
      h("span", { class: "grow" }), actions),
    h("div", { class: "card" }, resultPanel),
    h("section", { class: "card" },
      h("div", { class: "card-head" }, h("h2", null, t("source")),
        earlier.length ? h("label", { class: "inline" }, t("compareWith"), compare) : null),
      sourceHost, diffHost));
}
