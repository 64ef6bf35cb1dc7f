// A problem's statement (English or Chinese), signature, parameters and the tested sizes and
// distributions: shown on the problem page and in the instructor's upload preview.
import { h, replace } from "../dom";
import { lang, t, type Lang } from "../i18n";
import { renderMarkdown } from "../markdown";
import type { ProblemDetail } from "../types";

export function statementView(problem: ProblemDetail): HTMLElement {
  const available = (["en", "zh"] as Lang[]).filter((l) => problem.statement[l]);
  let shown: Lang = available.includes(lang()) ? lang() : available[0] ?? "en";
  const body = h("div", { class: "markdown statement-body" });
  const tabs = h("div", { class: "segmented", role: "tablist", "aria-label": t("statement") });
  const draw = () => {
    body.innerHTML = renderMarkdown(problem.statement[shown] ?? "");
    body.lang = shown === "zh" ? "zh-CN" : "en";
    replace(tabs, available.map((l) => h("button", { type: "button", role: "tab", class: l === shown ? "active" : "",
      "aria-selected": String(l === shown), dataset: { lang: l }, onclick: () => { shown = l; draw(); } }, t(l))));
  };
  draw();
  return h("section", { class: "card statement" },
    h("div", { class: "card-head" }, h("h2", null, t("statement")), tabs),
    body,
    h("h3", null, t("signature")), h("pre", { class: "signature mono" }, problem.signature),
    paramsTable(problem), testsTable(problem));
}

function paramsTable(problem: ProblemDetail): HTMLElement {
  return h("div", null, h("h3", null, t("parameters")),
    h("table", { class: "table compact" },
      h("thead", null, h("tr", null, [t("name"), t("role"), t("type"), t("shape"), t("values")].map((x) => h("th", null, x)))),
      h("tbody", null, problem.params.map((p) => h("tr", null,
        h("td", { class: "mono" }, p.name), h("td", null, p.role), h("td", { class: "mono" }, p.c_type),
        h("td", { class: "mono" }, p.shape ?? "—"),
        h("td", { class: "mono" }, p.values ? `[${p.values.low}, ${p.values.high})` : p.init ? `init: ${p.init}` : "—"))))));
}

function sizeText(size: Record<string, number>): string {
  return Object.entries(size).map(([k, v]) => `${k}=${v.toLocaleString("en-US")}`).join(" ");
}

function testsTable(problem: ProblemDetail): HTMLElement {
  const tolerance = Object.entries(problem.tolerance).filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
  return h("div", { class: "tested" }, h("h3", null, t("testedSizes")),
    h("table", { class: "table compact" },
      h("thead", null, h("tr", null, [t("group"), t("sizes"), t("distributions")].map((x) => h("th", null, x)))),
      h("tbody", null, problem.tests.map((g) => h("tr", { dataset: { group: g.name } },
        h("td", null, h("span", { class: "mono" }, g.name), g.sample ? h("span", { class: "badge subtle" }, t("sample")) : null,
          g.gpu_only ? h("span", { class: "badge subtle" }, t("gpuOnly")) : null),
        h("td", { class: "mono sizes" }, g.sizes.map(sizeText).join(", ")),
        h("td", null, g.distributions.map((d) => h("span", { class: "chip static" }, d))))))),
    h("p", { class: "muted small" }, `${t("tolerance")}: ${tolerance}`));
}
