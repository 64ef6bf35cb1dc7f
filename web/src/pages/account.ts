// The account page: named API tokens for the command line (a new one's secret shown once, with Copy),
// revoking them, changing the password, and the problems the user solved.
import { api } from "../api";
import { formatDate, h, replace } from "../dom";
import { lang, t } from "../i18n";
import { currentUser } from "../session";
import type { ApiToken, CreatedToken, SolvedProblem } from "../types";

export async function accountPage(outlet: HTMLElement): Promise<void> {
  const user = currentUser();
  if (!user) {
    replace(outlet, h("div", { class: "alert info" }, t("needSignIn"), " ",
      h("a", { href: "/login?next=%2Faccount" }, t("signIn"))));
    return;
  }
  const [tokens, solved] = await Promise.all([api.tokens(), api.solved()]);
  const tokenList = h("div", { class: "token-list" });
  const showTokens = (rows: ApiToken[]) => replace(tokenList, tokensTable(rows, reloadTokens));
  const reloadTokens = async () => showTokens(await api.tokens());
  showTokens(tokens);
  replace(outlet, h("div", { class: "page-head" }, h("h1", null, t("account"), " · ", user.username)),
    h("section", { class: "card account-tokens" }, h("h2", null, t("apiTokens")),
      h("p", { class: "muted" }, t("apiTokensHint")), createTokenForm(reloadTokens), tokenList),
    passwordCard(reloadTokens), solvedCard(solved));
}

function failure(error: HTMLElement, err: unknown): void {
  replace(error, (err as Error).message);
  error.hidden = false;
}

function createTokenForm(reload: () => Promise<void>): HTMLElement {
  const name = h("input", { name: "token-name", required: true, maxlength: 64, placeholder: t("tokenNamePlaceholder"),
                            "aria-label": t("tokenName") });
  const button = h("button", { type: "submit", class: "button primary" }, t("createToken"));
  const error = h("div", { class: "alert error", hidden: true, role: "alert" });
  const shown = h("div", { class: "new-token" });
  return h("div", null, h("form", { class: "account-row", onsubmit: async (e: Event) => {
    e.preventDefault();
    button.disabled = true;
    error.hidden = true;
    try {
      replace(shown, secretView(await api.createToken(name.value)));
      name.value = "";
      await reload();
    } catch (err) {
      failure(error, err);
    } finally {
      button.disabled = false;
    }
  } }, h("label", { class: "inline" }, t("tokenName"), name), button), error, shown);
}

function secretView(created: CreatedToken): HTMLElement {
  const copy = h("button", { type: "button", class: "button small copy-token" }, t("copy"));
  const secret = h("code", { class: "token-secret" }, created.token);
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(created.token);
      copy.textContent = t("copied");
    } catch {
      getSelection()?.selectAllChildren(secret);   // no clipboard (a page on plain http): selected, to copy by hand
    }
  });
  return h("div", { class: "alert success" },
    h("p", null, h("strong", null, created.name ?? ""), " — ", t("tokenCreated")),
    h("div", { class: "account-row" }, secret, copy),
    h("p", { class: "muted small" }, t("tokenUse")),
    h("pre", { class: "mono" }, `cudajudge judge PROBLEM FILE.cu --server ${location.origin} --token ${created.token}`));
}

function tokensTable(tokens: ApiToken[], reload: () => Promise<void>): HTMLElement {
  const error = h("div", { class: "alert error", hidden: true, role: "alert" });
  const revoke = async (token: ApiToken) => {
    if (!confirm(t("revokeConfirm"))) return;
    try {
      await api.revokeToken(token.id);
      await reload();
    } catch (err) {
      failure(error, err);
    }
  };
  return h("div", null, error, h("table", { class: "table compact tokens" },
    h("thead", null, h("tr", null, h("th", null, t("name")), h("th", null, t("created")), h("th", null, t("expires")),
      h("th", null, ""))),
    h("tbody", null, tokens.length ? tokens.map((token) => h("tr", { dataset: { tokenId: String(token.id) } },
      h("td", { class: "token-name" }, token.name ?? ""),
      h("td", { class: "nowrap" }, formatDate(token.created_at)),
      h("td", { class: "nowrap" }, formatDate(token.expires_at)),
      h("td", { class: "num" }, h("button", { type: "button", class: "button small revoke", onclick: () => revoke(token) },
        t("revoke")))))
      : h("tr", null, h("td", { class: "empty", colspan: 4 }, t("noTokens"))))));
}

function passwordCard(reloadTokens: () => Promise<void>): HTMLElement {
  const field = (name: string, autocomplete: string, label: string, minlength?: number) =>
    h("label", null, label, h("input", { name, type: "password", required: true, autocomplete, minlength, maxlength: 256 }));
  const current = field("current-password", "current-password", t("currentPassword"));
  const fresh = field("new-password", "new-password", t("newPassword"), 8);
  const again = field("repeat-password", "new-password", t("repeatPassword"), 8);
  const value = (label: HTMLElement) => (label.querySelector("input") as HTMLInputElement).value;
  const message = h("div", { class: "alert", hidden: true, role: "status" });
  const say = (kind: "error" | "success", text: string) => {
    message.className = `alert ${kind}`;
    replace(message, text);
    message.hidden = false;
  };
  const button = h("button", { type: "submit", class: "button primary" }, t("changePassword"));
  const form = h("form", { class: "password-form", onsubmit: async (e: Event) => {
    e.preventDefault();
    if (value(fresh) !== value(again)) {
      say("error", t("passwordsDiffer"));
      return;
    }
    button.disabled = true;
    try {
      const changed = await api.changePassword(value(current), value(fresh));
      form.reset();
      say("success", `${t("passwordChanged")} ${changed.revoked}`);
      await reloadTokens();
    } catch (err) {
      say("error", (err as Error).message);
    } finally {
      button.disabled = false;
    }
  } }, current, fresh, h("small", { class: "muted" }, t("passwordHint")), again, message, button);
  return h("section", { class: "card account-password" }, h("h2", null, t("changePassword")),
    h("p", { class: "muted" }, t("changePasswordHint")), form);
}

function solvedCard(solved: SolvedProblem[]): HTMLElement {
  return h("section", { class: "card account-solved" }, h("h2", null, `${t("solvedProblems")} (${solved.length})`),
    solved.length ? h("table", { class: "table compact solved-problems" },
      h("thead", null, h("tr", null, h("th", null, t("problem")), h("th", null, t("solvedOn")), h("th", null, ""))),
      h("tbody", null, solved.map((s) => h("tr", null,
        h("td", null, h("a", { href: `/problems/${s.problem.id}` },
          `#${s.problem.id} ${lang() === "zh" ? s.problem.title.zh : s.problem.title.en}`)),
        h("td", { class: "nowrap" }, formatDate(s.solved_at)),
        h("td", { class: "num" }, h("a", { href: `/submissions/${s.submission_id}` }, t("viewDetails")))))))
      : h("p", { class: "muted" }, t("noSolved")));
}
