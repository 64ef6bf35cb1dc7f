// The colour theme, light or dark, as `data-theme` on <html> (style.css keys its colours on it). Until the
// user picks one with the top bar's toggle it follows the system's prefers-color-scheme; a pick is
// remembered in localStorage. index.html applies the same rule before the first paint, so that a dark
// page never flashes light.
export type Theme = "light" | "dark";

const KEY = "cudajudge.theme";
const system = matchMedia("(prefers-color-scheme: dark)");
const listeners: ((theme: Theme) => void)[] = [];

function chosen(): Theme | null {
  const value = localStorage.getItem(KEY);
  return value === "light" || value === "dark" ? value : null;
}

function apply(next: Theme): void {
  if (document.documentElement.dataset.theme === next) return;
  document.documentElement.dataset.theme = next;
  listeners.forEach((f) => f(next));
}

export function theme(): Theme {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

export function toggleTheme(): void {
  const next: Theme = theme() === "dark" ? "light" : "dark";
  localStorage.setItem(KEY, next);
  apply(next);
}

export function onThemeChange(f: (theme: Theme) => void): void {
  listeners.push(f);
}

apply(chosen() ?? (system.matches ? "dark" : "light"));
system.addEventListener("change", () => { if (!chosen()) apply(system.matches ? "dark" : "light"); });
