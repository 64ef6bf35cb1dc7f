// The API client: same-origin requests with the session cookie; the CSRF token (readable cookie) goes
// in X-CSRF-Token on every write, as the server asks.
import type {
  Health, Leaderboard, LoginOut, Mode, ProblemDetail, ProblemSummary, SubmissionList, SubmissionOut, UploadPreview,
  User,
} from "./types";

const CSRF_COOKIE = "cudajudge_csrf";

export class ApiError extends Error {
  constructor(readonly status: number, readonly detail: unknown) {
    super(ApiError.describe(status, detail));
  }

  static describe(status: number, detail: unknown): string {
    if (typeof detail === "string") return detail;
    if (detail && typeof detail === "object" && "message" in detail) return String((detail as { message: unknown }).message);
    if (Array.isArray(detail)) {   // FastAPI's validation errors
      return detail.map((d) => `${(d.loc ?? []).slice(1).join(".")}: ${d.msg}`).join("; ");
    }
    return `HTTP ${status}`;
  }
}

function csrfToken(): string | null {
  const match = document.cookie.split("; ").find((c) => c.startsWith(CSRF_COOKIE + "="));
  return match ? decodeURIComponent(match.slice(CSRF_COOKIE.length + 1)) : null;
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  if (method !== "GET") {
    const csrf = csrfToken();
    if (csrf) headers["X-CSRF-Token"] = csrf;
  }
  const response = await fetch(path, { method, headers, body: payload, credentials: "same-origin" });
  if (response.status === 204) return undefined as T;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data?.detail ?? response.statusText);
  return data as T;
}

function query(params: Record<string, string | number | boolean | undefined>): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) q.set(key, String(value));
  const text = q.toString();
  return text ? "?" + text : "";
}

export const api = {
  me: () => request<User>("GET", "/api/auth/me"),
  login: (username: string, password: string) => request<LoginOut>("POST", "/api/auth/login", { username, password }),
  register: (username: string, password: string) => request<User>("POST", "/api/auth/register", { username, password }),
  logout: () => request<void>("POST", "/api/auth/logout"),
  health: () => request<Health>("GET", "/api/health"),
  problems: () => request<ProblemSummary[]>("GET", "/api/problems"),
  problem: (id: string | number) => request<ProblemDetail>("GET", `/api/problems/${encodeURIComponent(id)}`),
  leaderboard: (id: string | number) => request<Leaderboard>("GET", `/api/problems/${encodeURIComponent(id)}/leaderboard`),
  submit: (problem: number, source: string, mode: Mode) =>
    request<SubmissionOut>("POST", "/api/submissions", { problem, source, mode }),
  submission: (id: number) => request<SubmissionOut>("GET", `/api/submissions/${id}`),
  submissions: (params: { problem?: string | number; mine?: boolean; limit?: number; before?: number; mode?: Mode }) =>
    request<SubmissionList>("GET", "/api/submissions" + query(params)),
  rejudgeSubmission: (id: number) => request<{ queued: number }>("POST", `/api/submissions/${id}/rejudge`),
  rejudgeProblem: (id: number) => request<{ queued: number }>("POST", `/api/problems/${id}/rejudge`),
  previewUpload: (file: File) => request<UploadPreview>("POST", "/api/problems/validate", form(file)),
  upload: (file: File) => request<ProblemSummary>("POST", "/api/problems", form(file)),
};

function form(file: File): FormData {
  const data = new FormData();
  data.append("file", file);
  return data;
}
