// A problem's leaderboard: the GPU-timed ranking per GPU model, and everyone who solved it.
import { api } from "../api";
import { formatUs } from "../chart";
import { formatDate, h, replace } from "../dom";
import { t } from "../i18n";
import { currentUser } from "../session";
import { problemHeader } from "./problem";

export async function leaderboardPage(outlet: HTMLElement, params: Record<string, string>): Promise<void> {
  const [problem, board] = await Promise.all([api.problem(params.id), api.leaderboard(params.id)]);
  const me = currentUser()?.id;
  const mine = (id: number) => (id === me ? "me" : "");
  replace(outlet,
    problemHeader(problem, "leaderboard"),
    h("section", { class: "card" }, h("h2", null, t("leaderboard")),
      board.devices.length ? board.devices.map((d) => h("div", { class: "device-board" },
        h("h3", null, d.device),
        h("table", { class: "table compact" },
          h("thead", null, h("tr", null, h("th", { class: "num" }, t("rank")), h("th", null, t("user")),
            h("th", { class: "num" }, t("bestMedian")), h("th", { class: "num", title: t("intervalHint") }, t("interval")),
            h("th", null, t("submitted")))),
          h("tbody", null, d.entries.map((e) => h("tr", { class: mine(e.user.id), dataset: { user: e.user.username } },
            h("td", { class: "num rank" }, String(e.rank),
              e.tied ? h("span", { class: "badge tie", title: t("tiedHint") }, t("tied")) : null),
            h("td", null, e.user.username), h("td", { class: "num" }, formatUs(e.median_us)),
            h("td", { class: "num muted", title: `${formatUs(e.low_us)} – ${formatUs(e.high_us)}` }, `± ${formatUs((e.high_us - e.low_us) / 2)}`),
            h("td", { class: "muted" }, formatDate(e.submitted_at))))))))
        : h("p", { class: "muted" }, t("noTimedEntries"))),
    h("section", { class: "card accepted-board" }, h("h2", null, t("accepted")),
      board.accepted.length ? h("table", { class: "table compact" },
        h("thead", null, h("tr", null, h("th", { class: "num" }, "#"), h("th", null, t("user")), h("th", null, t("firstAccepted")),
          h("th", { class: "num" }, t("tries")), h("th", null, t("backend")))),
        h("tbody", null, board.accepted.map((e, i) => h("tr", { class: mine(e.user.id), dataset: { user: e.user.username } },
          h("td", { class: "num" }, String(i + 1)), h("td", null, e.user.username),
          h("td", { class: "muted" }, formatDate(e.accepted_at)), h("td", { class: "num" }, String(e.submissions)),
          h("td", null, e.backend ?? "")))))
        : h("p", { class: "muted" }, t("nobodySolved"))));
}
