// The timing chart: one row per benchmark case (size × distribution), each on its own scale (cases differ
// by orders of magnitude). The bar is the median with the IQR as a whisker; marks show the speed of light
// (the case's bytes at the device's measured copy bandwidth) and the library baseline.
import { svg } from "./dom";
import { t } from "./i18n";
import type { CaseTiming } from "./types";

export function formatUs(us: number): string {
  if (us >= 1e6) return `${(us / 1e6).toPrecision(3)} s`;
  if (us >= 1e3) return `${(us / 1e3).toPrecision(3)} ms`;
  return `${us.toPrecision(3)} µs`;
}

export function caseLabel(c: { size: Record<string, number>; distribution: string }): string {
  const size = Object.entries(c.size).map(([k, v]) => `${k}=${v.toLocaleString("en-US")}`).join(", ");
  return `${size} · ${c.distribution}`;
}

/** The time the case would take at 100% of the speed of light. */
export function speedOfLightUs(c: CaseTiming): number | null {
  return c.sol_pct ? (c.median_us * c.sol_pct) / 100 : null;
}

const WIDTH = 720, ROW = 58, LEFT = 16, BAR_W = 440, TOP = 30;

export function timingChart(cases: CaseTiming[]): SVGElement {
  const height = TOP + cases.length * ROW + 8;
  const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${height}`, class: "timing-chart", role: "img",
                             "aria-label": t("perCase") });
  const legend = svg("g", { transform: `translate(${LEFT}, 14)`, class: "legend" });
  const items: [string, string][] = [["bar", t("median")], ["sol", t("speedOfLight")], ["baseline", t("baseline")]];
  items.forEach(([kind, label], i) => {
    const x = i * 150;
    legend.append(kind === "bar" ? svg("rect", { x, y: -7, width: 14, height: 9, class: "bar", rx: 2 })
                                 : svg("line", { x1: x + 7, x2: x + 7, y1: -9, y2: 4, class: kind }));
    legend.append(svg("text", { x: x + 20, y: 1 }, label));
  });
  chart.append(legend);
  cases.forEach((c, i) => {
    const y = TOP + i * ROW;
    const sol = speedOfLightUs(c);
    const high = c.median_us + c.iqr_us / 2;
    const scale = BAR_W / (Math.max(high, c.baseline_us ?? 0, sol ?? 0) * 1.08);
    const row = svg("g", { transform: `translate(${LEFT}, ${y})`, class: "case" });
    row.append(svg("text", { x: 0, y: 10, class: "case-label" }, caseLabel(c)));
    row.append(svg("rect", { x: 0, y: 18, width: BAR_W, height: 20, class: "track", rx: 3 }));
    row.append(svg("rect", { x: 0, y: 18, width: Math.max(1, c.median_us * scale), height: 20, class: "bar", rx: 3 }));
    const lo = Math.max(0, c.median_us - c.iqr_us / 2) * scale, hi = high * scale;
    row.append(svg("line", { x1: lo, x2: hi, y1: 28, y2: 28, class: "whisker" }));
    if (sol) row.append(svg("line", { x1: sol * scale, x2: sol * scale, y1: 14, y2: 42, class: "sol" }));
    if (c.baseline_us) row.append(svg("line", { x1: c.baseline_us * scale, x2: c.baseline_us * scale, y1: 14, y2: 42,
                                                class: "baseline" }));
    const facts = [formatUs(c.median_us)];
    if (c.sol_pct !== null) facts.push(`${c.sol_pct.toFixed(0)}% SOL`);
    if (c.ratio_to_baseline !== null) facts.push(`${c.ratio_to_baseline.toFixed(2)}× ${t("vsBaseline")}`);
    row.append(svg("text", { x: BAR_W + 12, y: 33, class: "case-figures" }, facts.join(" · ")));
    chart.append(row);
  });
  return chart;
}
