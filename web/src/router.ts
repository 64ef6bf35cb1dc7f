// Client routes on the History API: the server answers every non-API path with index.html.

export type Page = (outlet: HTMLElement, params: Record<string, string>, query: URLSearchParams) => void | Promise<void>;

interface Route { pattern: RegExp; names: string[]; page: Page }

const routes: Route[] = [];
let render: (() => void) | null = null;
let cleanups: (() => void)[] = [];

/** Runs `f` when the current page is left (or drawn again): close event streams, timers. */
export function onLeave(f: () => void): void {
  cleanups.push(f);
}

export function leavePage(): void {
  cleanups.forEach((f) => f());
  cleanups = [];
}

export function route(path: string, page: Page): void {
  const names: string[] = [];
  const pattern = new RegExp("^" + path.replace(/:(\w+)/g, (_, name) => { names.push(name); return "([^/]+)"; }) + "/?$");
  routes.push({ pattern, names, page });
}

export function match(pathname: string): { page: Page; params: Record<string, string> } | null {
  for (const r of routes) {
    const m = r.pattern.exec(pathname);
    if (m) return { page: r.page, params: Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) };
  }
  return null;
}

export function navigate(url: string, replaceState = false): void {
  if (replaceState) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  window.scrollTo(0, 0);
  render?.();
}

export function startRouter(draw: () => void): void {
  render = draw;
  window.addEventListener("popstate", draw);
  document.addEventListener("click", (event) => {
    const link = (event.target as Element).closest("a");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const href = link.getAttribute("href");
    if (!href || !href.startsWith("/") || href.startsWith("/api") || href.startsWith("/docs") || link.target) return;
    event.preventDefault();
    navigate(href);
  });
  draw();
}
