// The problem list: difficulty, tags, solved state, with filters kept in the URL's query.
import { api } from "../api";
import { h, replace } from "../dom";
import { lang, t, type Key } from "../i18n";
import { currentUser } from "../session";
import type { ProblemSummary } from "../types";

export function difficultyBadge(difficulty: string): HTMLElement {
  const known = ["easy", "medium", "hard"].includes(difficulty);
  return h("span", { class: `difficulty ${difficulty}` }, known ? t(difficulty as Key) : difficulty);
}

export function problemTitle(p: ProblemSummary): string {
  return lang() === "zh" ? p.title.zh : p.title.en;
}

interface Filters { q: string; difficulty: string; tag: string; unsolved: boolean }

function matches(p: ProblemSummary, state: Filters): boolean {
  const q = state.q.trim().toLowerCase();
  return (!state.difficulty || p.difficulty === state.difficulty) && (!state.tag || p.tags.includes(state.tag)) &&
    (!state.unsolved || !p.solved) &&
    (!q || [String(p.id), p.slug, p.title.en, p.title.zh, ...p.tags].some((x) => x.toLowerCase().includes(q)));
}

/** The filters as the page's query string ("" when none is set), so that a link keeps them. */
function queryOf(state: Filters): string {
  const params = new URLSearchParams();
  if (state.q) params.set("q", state.q);
  if (state.difficulty) params.set("difficulty", state.difficulty);
  if (state.tag) params.set("tag", state.tag);
  if (state.unsolved) params.set("unsolved", "1");
  return params.toString() ? "?" + params : "";
}

function problemRow(p: ProblemSummary, signedIn: boolean, onTag: (tag: string) => void): HTMLElement {
  return h("tr", { dataset: { problem: String(p.id) } },
    h("td", { class: "num muted" }, String(p.id)),
    h("td", null, h("a", { href: `/problems/${p.id}`, class: "problem-link" }, problemTitle(p)),
      p.origin === "uploaded" ? h("span", { class: "badge subtle" }, "uploaded") : null),
    h("td", null, difficultyBadge(p.difficulty)),
    h("td", null, p.tags.map((tag) => h("button", { class: "chip", type: "button", onclick: () => onTag(tag) }, tag))),
    signedIn ? h("td", { class: "center" }, p.solved ? h("span", { class: "solved", title: t("solved") }, "✓")
                                                    : h("span", { class: "muted", title: t("notSolved") }, "–")) : null);
}

export async function problemsPage(outlet: HTMLElement, _: Record<string, string>, query: URLSearchParams): Promise<void> {
  const problems = await api.problems();
  const tags = [...new Set(problems.flatMap((p) => p.tags))].sort();
  const signedIn = currentUser() !== null;
  const state: Filters = { q: query.get("q") ?? "", difficulty: query.get("difficulty") ?? "", tag: query.get("tag") ?? "",
                  unsolved: query.get("unsolved") === "1" };
  const body = h("tbody");
  const count = h("span", { class: "muted" });

  const draw = () => {
    const shown = problems.filter((p) => matches(p, state));
    replace(count, `${shown.length} / ${problems.length}`);
    replace(body, shown.length ? shown.map((p) => problemRow(p, signedIn, (tag) => { state.tag = tag; sync(); }))
      : h("tr", null, h("td", { colspan: 5, class: "empty" }, t("noMatch"))));
  };
  const sync = () => {
    history.replaceState(null, "", "/problems" + queryOf(state));
    tagSelect.value = state.tag;
    draw();
  };

  const search = h("input", { type: "search", placeholder: t("search"), value: state.q, class: "grow",
                              oninput: (e: Event) => { state.q = (e.target as HTMLInputElement).value; sync(); } });
  const difficulties = [...new Set(problems.map((p) => p.difficulty))];
  const difficultySelect = h("select", { "aria-label": t("difficulty"),
                                         onchange: (e: Event) => { state.difficulty = (e.target as HTMLSelectElement).value; sync(); } },
    h("option", { value: "" }, t("allDifficulties")),
    ["easy", "medium", "hard", ...difficulties.filter((d) => !["easy", "medium", "hard"].includes(d))]
      .filter((d) => difficulties.includes(d))
      .map((d) => h("option", { value: d, selected: d === state.difficulty }, difficultyBadge(d).textContent ?? d)));
  const tagSelect = h("select", { "aria-label": t("tags"),
                                  onchange: (e: Event) => { state.tag = (e.target as HTMLSelectElement).value; sync(); } },
    h("option", { value: "" }, t("allTags")), tags.map((tag) => h("option", { value: tag, selected: tag === state.tag }, tag)));
  const unsolved = signedIn ? h("label", { class: "check" },
    h("input", { type: "checkbox", checked: state.unsolved,
                 onchange: (e: Event) => { state.unsolved = (e.target as HTMLInputElement).checked; sync(); } }),
    t("unsolvedOnly")) : null;

  replace(outlet,
    h("div", { class: "page-head" }, h("h1", null, t("problems")), count),
    h("div", { class: "filters card" }, search, difficultySelect, tagSelect, unsolved),
    h("div", { class: "card flush" }, h("table", { class: "table problems" },
      h("thead", null, h("tr", null, h("th", { class: "num" }, t("id")), h("th", null, t("title")),
        h("th", null, t("difficulty")), h("th", null, t("tags")), signedIn ? h("th", { class: "center" }, t("status")) : null)),
      body)));
  draw();
}
