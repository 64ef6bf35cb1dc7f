// Instructor pages: upload a problem zip (validate first: the report and a preview of the statement),
// publish it; update, unpublish and publish again the uploaded problems; rejudge a problem's submissions.
import { api } from "../api";
import { formatDate, h, replace } from "../dom";
import { lang, t } from "../i18n";
import { isInstructor } from "../session";
import type { UploadedProblem, UploadPreview } from "../types";
import { difficultyBadge } from "./problems";
import { statementView } from "./statement";

export async function instructorPage(outlet: HTMLElement): Promise<void> {
  if (!isInstructor()) {
    replace(outlet, h("div", { class: "alert info" }, t("needInstructor")));
    return;
  }
  const [problems, uploaded] = await Promise.all([api.problems(), api.uploaded()]);
  replace(outlet, h("div", { class: "page-head" }, h("h1", null, t("instructor"))), uploadCard(), uploadedCard(uploaded),
    rejudgeCard(problems));
}

function uploadedCard(uploaded: UploadedProblem[]): HTMLElement {
  const rows = h("tbody");
  const draw = (entries: UploadedProblem[]) => replace(rows, ...entries.map((u) => uploadedRow(u, (changed) =>
    draw(entries.map((e) => (e.problem.id === changed.problem.id ? changed : e))))));
  draw(uploaded);
  return h("section", { class: "card uploaded" }, h("h2", null, t("uploadedProblems")), h("p", { class: "muted" }, t("uploadedHint")),
    uploaded.length ? h("table", { class: "table compact uploaded-problems" },
      h("thead", null, h("tr", null, h("th", null, t("problem")), h("th", null, t("uploadedBy")), h("th", null, t("updated")),
        h("th", { class: "num" }, t("submissionsCount")), h("th", null, ""), h("th", null, ""))), rows)
      : h("p", { class: "muted" }, t("noUploaded")));
}

/** One uploaded problem: its state, a new version's zip to update it with, and unpublish or publish. */
function uploadedRow(u: UploadedProblem, changed: (u: UploadedProblem) => void): HTMLElement {
  const p = u.problem;
  const status = h("div", { class: "small" });
  const file = h("input", { type: "file", accept: ".zip,application/zip", "aria-label": `${t("update")} #${p.id}` });
  const update = h("button", { type: "button", class: "button", onclick: async () => {
    const zip = file.files?.[0];
    if (!zip) return;
    update.disabled = true;
    replace(status, h("span", { class: "muted" }, t("validating")));
    try {
      await api.updateProblem(p.id, zip);
      changed((await api.uploaded()).find((e) => e.problem.id === p.id) ?? u);
    } catch (error) {
      replace(status, h("span", { class: "alert error" }, (error as Error).message));
      update.disabled = false;
    }
  } }, t("update"));
  const toggle = h("button", { type: "button", class: "button ghost", onclick: async () => {
    toggle.disabled = true;
    try {
      changed(await api.setPublished(p.id, !u.published));
    } catch (error) {
      replace(status, h("span", { class: "alert error" }, (error as Error).message));
      toggle.disabled = false;
    }
  } }, u.published ? t("unpublish") : t("publishAgain"));
  const title = `#${p.id} ${lang() === "zh" ? p.title.zh : p.title.en}`;
  return h("tr", { dataset: { problem: String(p.id) } },
    h("td", null, u.published ? h("a", { href: `/problems/${p.id}` }, title) : title, " ",
      h("span", { class: u.published ? "badge subtle" : "badge warn" }, u.published ? t("publishedState") : t("unpublishedState")),
      status),
    h("td", null, u.uploaded_by ?? ""), h("td", { class: "muted" }, formatDate(u.updated_at)),
    h("td", { class: "num" }, String(u.submissions)), h("td", null, file, update), h("td", null, toggle));
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
