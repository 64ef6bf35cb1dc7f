// The API client: same-origin requests with the session cookie; the CSRF token (readable cookie) goes
// in X-CSRF-Token on every write, as the server asks.
import type {
  ApiToken, CreatedToken, DraftOut, Health, Leaderboard, LoginOut, Mode, PasswordChanged, ProblemDetail, ProblemSummary,
  SolvedProblem, Status, SubmissionList, SubmissionOut, UploadedProblem, UploadPreview, User,
} from "./types";
import { t } from "./i18n";

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

/** The server could not be reached at all (offline, server down, connection cut): no HTTP answer. */
export class NetworkError extends Error {
  constructor() {
    super(t("cannotReachServer"));
  }
}

/** `fetch`, with a failure to reach the server as a NetworkError (the browser's own text says nothing useful). */
export async function reach(input: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new NetworkError();
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
  const response = await reach(path, { method, headers, body: payload, credentials: "same-origin" });
  if (response.status === 204) return undefined as T;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data?.detail ?? response.statusText);
  return data as T;
}

function query(params: Record<string, string | number | boolean | string[] | undefined>): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : value !== undefined ? [value] : []) q.append(key, String(one));
  }
  const text = q.toString();
  return text ? "?" + text : "";
}

export const api = {
  me: () => request<User>("GET", "/api/auth/me"),
  login: (username: string, password: string) =>
    request<LoginOut>("POST", "/api/auth/login", { username, password, bearer: false }),
  register: (username: string, password: string) => request<User>("POST", "/api/auth/register", { username, password }),
  logout: () => request<void>("POST", "/api/auth/logout"),
  tokens: () => request<ApiToken[]>("GET", "/api/auth/tokens"),
  createToken: (name: string) => request<CreatedToken>("POST", "/api/auth/tokens", { name }),
  revokeToken: (id: number) => request<void>("DELETE", `/api/auth/tokens/${id}`),
  changePassword: (current_password: string, new_password: string) =>
    request<PasswordChanged>("POST", "/api/auth/password", { current_password, new_password }),
  solved: () => request<SolvedProblem[]>("GET", "/api/auth/solved"),
  health: () => request<Health>("GET", "/api/health"),
  problems: () => request<ProblemSummary[]>("GET", "/api/problems"),
  problem: (id: string | number) => request<ProblemDetail>("GET", `/api/problems/${encodeURIComponent(id)}`),
  leaderboard: (id: string | number) => request<Leaderboard>("GET", `/api/problems/${encodeURIComponent(id)}/leaderboard`),
  submit: (problem: number, source: string, mode: Mode) =>
    request<SubmissionOut>("POST", "/api/submissions", { problem, source, mode }),
  submission: (id: number) => request<SubmissionOut>("GET", `/api/submissions/${id}`),
  submissions: (params: { problem?: string | number; mine?: boolean; limit?: number; before?: number; mode?: Mode;
                          status?: Status[] }) =>
    request<SubmissionList>("GET", "/api/submissions" + query(params)),
  rejudgeSubmission: (id: number) => request<{ queued: number }>("POST", `/api/submissions/${id}/rejudge`),
  rejudgeProblem: (id: number) => request<{ queued: number }>("POST", `/api/problems/${id}/rejudge`),
  previewUpload: (file: File) => request<UploadPreview>("POST", "/api/problems/validate", form(file)),
  upload: (file: File) => request<ProblemSummary>("POST", "/api/problems", form(file)),
  uploaded: () => request<UploadedProblem[]>("GET", "/api/problems/uploaded"),
  draft: (problem: number) => request<DraftOut>("GET", `/api/drafts/${problem}`),
  saveDraft: (problem: number, source: string, revision: number) =>
    request<DraftOut>("PUT", `/api/drafts/${problem}`, { source, revision }),
  deleteDraft: (problem: number) => request<void>("DELETE", `/api/drafts/${problem}`),
  updateProblem: (id: number, file: File) => request<ProblemSummary>("PUT", `/api/problems/${id}`, form(file)),
  setPublished: (id: number, published: boolean) =>
    request<UploadedProblem>("POST", `/api/problems/${id}/${published ? "publish" : "unpublish"}`),
};

function form(file: File): FormData {
  const data = new FormData();
  data.append("file", file);
  return data;
}
