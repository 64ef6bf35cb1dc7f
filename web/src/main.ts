// The app shell: the top bar (navigation, theme, language, account; behind a menu button on phones) and
// the routed page below it.
import { api } from "./api";
import { h, replace } from "./dom";
import { lang, onLangChange, setLang, t } from "./i18n";
import { accountPage } from "./pages/account";
import { loginPage, registerPage } from "./pages/auth";
import { instructorPage } from "./pages/instructor";
import { leaderboardPage } from "./pages/leaderboard";
import { problemPage } from "./pages/problem";
import { problemsPage } from "./pages/problems";
import { historyPage, submissionPage } from "./pages/submissions";
import { leavePage, match, navigate, route, startRouter } from "./router";
import { currentUser, isInstructor, loadSession, onSessionChange, setUser } from "./session";
import { onThemeChange, theme, toggleTheme } from "./theme";
import "./style.css";

route("/", problemsPage);
route("/problems", problemsPage);
route("/problems/:id", problemPage);
route("/problems/:id/submissions", historyPage);
route("/problems/:id/leaderboard", leaderboardPage);
route("/submissions", historyPage);
route("/submissions/:id", submissionPage);
route("/login", loginPage);
route("/register", registerPage);
route("/instructor", instructorPage);
route("/account", accountPage);

const app = document.getElementById("app")!;
const bar = h("header", { class: "topbar" });
let outlet = h("main", { class: "page" });
app.append(bar, outlet);

function drawBar(): void {
  const user = currentUser();
  const here = location.pathname;
  const link = (href: string, label: string, active: boolean) => h("a", { href, class: active ? "active" : "" }, label);
  const themeHint = t(theme() === "dark" ? "toLightTheme" : "toDarkTheme");
  bar.classList.remove("open");   // the bar is drawn again after each navigation: the phone menu closes
  const menuButton = h("button", { type: "button", class: "button ghost small menu-toggle", "aria-label": t("menu"),
                                   "aria-controls": "topbar-menu", "aria-expanded": "false", onclick: () =>
                                     menuButton.setAttribute("aria-expanded", String(bar.classList.toggle("open"))) }, "☰");
  replace(bar, h("div", { class: "topbar-inner" },
    h("a", { href: "/problems", class: "brand" }, h("span", { class: "logo" }, "▣"), t("brand")),
    menuButton,
    h("div", { class: "topbar-menu", id: "topbar-menu" },
    h("nav", { class: "main-nav" },
      link("/problems", t("problems"), here === "/" || here.startsWith("/problems")),
      user ? link("/submissions", t("submissions"), here.startsWith("/submissions")) : null,
      isInstructor() ? link("/instructor", t("instructor"), here.startsWith("/instructor")) : null),
    h("span", { class: "grow" }),
    h("button", { type: "button", class: "button ghost small theme-switch", title: themeHint, "aria-label": themeHint,
                  onclick: toggleTheme }, theme() === "dark" ? "☀" : "☾"),
    h("button", { type: "button", class: "button ghost small lang-switch", title: "English / 中文",
                  onclick: () => setLang(lang() === "zh" ? "en" : "zh") }, t("language")),
    user ? [h("a", { href: "/account", class: here === "/account" ? "user active" : "user", title: t("account") },
              user.username,
              user.role !== "student" ? h("span", { class: "badge subtle" }, user.role) : null),
            h("button", { type: "button", class: "button ghost small", onclick: async () => {
              await api.logout();
              setUser(null);
              navigate("/problems");
            } }, t("signOut"))]
      : [h("a", { href: `/login?next=${encodeURIComponent(here)}`, class: "button ghost small" }, t("signIn")),
         h("a", { href: `/register?next=${encodeURIComponent(here)}`, class: "button primary small" }, t("register"))])));
}

async function draw(): Promise<void> {
  leavePage();
  // A fresh element per drawing: a page still loading for an earlier route draws into a detached one.
  const fresh = h("main", { class: "page" });
  outlet.replaceWith(fresh);
  outlet = fresh;
  const here = outlet;
  drawBar();
  const found = match(location.pathname);
  if (!found) {
    replace(outlet, h("div", { class: "alert info" }, t("notFound"), " ", h("a", { href: "/problems" }, t("backToProblems"))));
    return;
  }
  replace(here, h("p", { class: "muted loading" }, t("loading")));
  try {
    await found.page(here, found.params, new URLSearchParams(location.search));
  } catch (error) {
    replace(here, h("div", { class: "alert error" }, `${t("error")}: ${(error as Error).message}`));
  }
}

onLangChange(() => void draw());
onSessionChange(() => drawBar());
onThemeChange(() => drawBar());
document.documentElement.lang = lang() === "zh" ? "zh-CN" : "en";
loadSession().finally(() => startRouter(() => void draw()));
