// Sign in and register (registering signs in too), then back to where the user came from.
import { api } from "../api";
import { h, replace } from "../dom";
import { t } from "../i18n";
import { navigate } from "../router";
import { setUser } from "../session";

function nextUrl(query: URLSearchParams): string {
  const next = query.get("next") ?? "/problems";
  return next.startsWith("/") && !next.startsWith("//") ? next : "/problems";
}

function authForm(outlet: HTMLElement, query: URLSearchParams, registering: boolean): void {
  const error = h("div", { class: "alert error", hidden: true, role: "alert" });
  const username = h("input", { name: "username", autocomplete: "username", required: true,
                                ...(registering ? { pattern: "[A-Za-z0-9][A-Za-z0-9_.\\-]{2,31}", title: t("usernameHint") } : {}) });
  const password = h("input", { name: "password", type: "password", required: true,
                                autocomplete: registering ? "new-password" : "current-password",
                                ...(registering ? { minlength: 8 } : {}) });
  const button = h("button", { type: "submit", class: "button primary wide" }, registering ? t("createAccount") : t("signIn"));
  const form = h("form", { class: "card auth", onsubmit: async (e: Event) => {
    e.preventDefault();
    button.disabled = true;
    error.hidden = true;
    try {
      if (registering) await api.register(username.value, password.value);
      const login = await api.login(username.value, password.value);
      setUser(login.user);
      navigate(nextUrl(query));
    } catch (err) {
      replace(error, (err as Error).message);
      error.hidden = false;
      button.disabled = false;
    }
  } },
    h("h1", null, registering ? t("register") : t("signIn")),
    h("label", null, t("username"), username, registering ? h("small", { class: "muted" }, t("usernameHint")) : null),
    h("label", null, t("password"), password, registering ? h("small", { class: "muted" }, t("passwordHint")) : null),
    error, button,
    h("p", { class: "muted small center" }, registering ? t("haveAccount") : t("noAccount"), " ",
      h("a", { href: `${registering ? "/login" : "/register"}?next=${encodeURIComponent(nextUrl(query))}` },
        registering ? t("signIn") : t("register"))));
  replace(outlet, h("div", { class: "auth-wrap" }, form));
  username.focus();
}

export function loginPage(outlet: HTMLElement, _: Record<string, string>, query: URLSearchParams): void {
  authForm(outlet, query, false);
}

export function registerPage(outlet: HTMLElement, _: Record<string, string>, query: URLSearchParams): void {
  authForm(outlet, query, true);
}
