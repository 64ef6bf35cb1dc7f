// Instructor pages: upload a problem zip (validate first: the report and a preview of the statement),
// publish it, and rejudge a problem's submissions.
import { api } from "../api";
import { h, replace } from "../dom";
import { lang, t } from "../i18n";
import { isInstructor } from "../session";
import type { UploadPreview } from "../types";
import { difficultyBadge } from "./problems";
import { statementView } from "./statement";

export async function instructorPage(outlet: HTMLElement): Promise<void> {
  if (!isInstructor()) {
    replace(outlet, h("div", { class: "alert info" }, t("needInstructor")));
    return;
  }
  const problems = await api.problems();
  replace(outlet, h("div", { class: "page-head" }, h("h1", null, t("instructor"))), uploadCard(), rejudgeCard(problems));
}

function uploadCard(): HTMLElement {
  const file = h("input", { type: "file", accept: ".zip,application/zip", name: "file", "aria-label": t("chooseZip") });
  const report = h("div", { class: "upload-report" });
  const validate = h("button", { type: "button", class: "button", disabled: true }, t("validate"));
  const publish = h("button", { type: "button", class: "button primary", disabled: true }, t("publish"));
  const chosen = () => file.files?.[0] ?? null;
  file.addEventListener("change", () => {
    validate.disabled = !chosen();
    publish.disabled = true;
    report.replaceChildren();
  });
  validate.addEventListener("click", async () => {
    const zip = chosen();
    if (!zip) return;
    validate.disabled = publish.disabled = true;
    replace(report, h("p", { class: "muted" }, t("validating")));
    try {
      const preview = await api.previewUpload(zip);
      replace(report, previewView(preview));
      publish.disabled = !preview.valid;
    } catch (error) {
      replace(report, h("div", { class: "alert error" }, (error as Error).message));
    } finally {
      validate.disabled = false;
    }
  });
  publish.addEventListener("click", async () => {
    const zip = chosen();
    if (!zip) return;
    publish.disabled = true;
    try {
      const added = await api.upload(zip);
      report.prepend(h("div", { class: "alert success published" }, `${t("published")}: `,
        h("a", { href: `/problems/${added.id}` }, `#${added.id} ${lang() === "zh" ? added.title.zh : added.title.en}`)));
    } catch (error) {
      report.prepend(h("div", { class: "alert error" }, (error as Error).message));
    }
  });
  return h("section", { class: "card upload" }, h("h2", null, t("uploadProblem")), h("p", { class: "muted" }, t("uploadHint")),
    h("div", { class: "upload-row" }, file, validate, publish), report);
}

function previewView(preview: UploadPreview): HTMLElement {
  const p = preview.problem;
  return h("div", { class: "preview", dataset: { valid: String(preview.valid) } },
    h("h3", null, t("validationReport")),
    preview.valid ? h("div", { class: "alert success report-summary" }, "✓ ", t("valid"))
      : h("div", { class: "alert error report-summary" }, `${t("invalid")}: ${preview.findings.length} ${t("findings")}`),
    preview.findings.length ? h("table", { class: "table compact findings" },
      h("thead", null, h("tr", null, h("th", null, t("file")), h("th", null, t("key")), h("th", null, t("message")))),
      h("tbody", null, preview.findings.map((f) => h("tr", null, h("td", { class: "mono" }, f.file),
        h("td", { class: "mono" }, f.key ?? ""), h("td", null, f.message))))) : null,
    p ? [h("h3", null, t("preview")),
         h("div", { class: "title-row" }, h("span", { class: "muted pid" }, `#${p.id}`),
           h("strong", null, lang() === "zh" ? p.title.zh : p.title.en), difficultyBadge(p.difficulty),
           h("span", { class: "muted mono" }, p.slug)),
         statementView(p)] : null);
}

function rejudgeCard(problems: { id: number; title: { en: string; zh: string } }[]): HTMLElement {
  const select = h("select", { "aria-label": t("problem") },
    problems.map((p) => h("option", { value: String(p.id) }, `#${p.id} ${lang() === "zh" ? p.title.zh : p.title.en}`)));
  const status = h("span", { class: "muted" });
  const button = h("button", { type: "button", class: "button", onclick: async () => {
    button.disabled = true;
    try {
      const { queued } = await api.rejudgeProblem(Number(select.value));
      replace(status, `${t("rejudgeQueued")}: ${queued}`);
    } catch (error) {
      replace(status, (error as Error).message);
    } finally {
      button.disabled = false;
    }
  } }, t("rejudgeAll"));
  return h("section", { class: "card" }, h("h2", null, t("rejudgeProblem")), h("p", { class: "muted" }, t("rejudgeProblemHint")),
    h("div", { class: "upload-row" }, select, button, status));
}
