// The API's bodies, as server/schemas.py and judge/result.py define them.

export type Role = "student" | "instructor" | "admin";
export type Mode = "run" | "submit";
export type Status = "queued" | "judging" | "done";
export type Verdict = "AC" | "WA" | "CE" | "RE" | "TLE" | "MLE" | "OLE" | "IE" | "NR";

export interface User { id: number; username: string; role: Role; disabled: boolean; created_at: string }
export interface LoginOut { token: string | null; csrf_token: string; user: User; expires_at: string | null }
export interface ApiToken { id: number; name: string | null; created_at: string; expires_at: string }
export interface CreatedToken extends ApiToken { token: string }
export interface PasswordChanged { revoked: number }

export interface Titles { en: string; zh: string }
export interface ProblemSummary {
  id: number; key: string; slug: string; title: Titles; difficulty: string; tags: string[];
  origin: "catalog" | "uploaded"; has_samples: boolean; solved: boolean | null;
}
export interface Param {
  name: string; role: string; dtype: string; c_type: string; shape: string | null; init: string | null;
  values: { low: number; high: number } | null; default: unknown;
}
export interface TestGroup {
  name: string; sample: boolean; gpu_only: boolean; sizes: Record<string, number>[]; distributions: string[];
  cases: string[];
}
export interface SolvedProblem { problem: ProblemSummary; submission_id: number; solved_at: string }
export interface ProblemDetail extends ProblemSummary {
  statement: { en: string | null; zh: string | null };
  starter: string | null; signature: string; params: Param[]; specials: boolean;
  tolerance: Record<string, unknown>; tests: TestGroup[]; benchmark: Record<string, unknown>;
  limits: Record<string, unknown>;
}

export interface Diagnostic {
  severity: string; file: string; line: number | null; column: number | null; message: string;
  source_line: string | null; stage: string;
}
export interface CompileInfo { ok: boolean; log: string; diagnostics: Diagnostic[]; cached: boolean; seconds: number | null }
export interface ArraySummary { size: number; first: number[]; last: number[] }
export interface Mismatch {
  output: string; index: number; expected: string; got: string; count: number; total: number;
  window_start: number; expected_window: string[]; got_window: string[];
}
export interface TestResult {
  name: string; size: Record<string, number>; distribution: string; verdict: Verdict; message: string;
  first_mismatch: Mismatch | null; inputs_shown: Record<string, unknown[] | number | ArraySummary> | null; time_ms: number | null;
  printf?: string;   // the kernels' printf of the test, cut: a cut text ends with a line "… N bytes more"
}
export interface OutputPart { test: string | null; text: string }   // the run process's stdout and stderr
export interface KernelTime { kernel: string; grid: number[]; block: number[]; shared_bytes: number; calls: number; total_us: number }
export interface TimingFigures {
  samples: number; median_us: number; min_us: number; iqr_us: number; noisy: boolean; gbps: number | null;
  sol_pct: number | null; baseline_us: number | null; ratio_to_baseline: number | null;
  calls_per_sample: number; single_call_us: number | null;   // > 1 call per sample: the median is a throughput
  baseline_age_s: number | null;   // the baseline was timed this long ago by an earlier judge on this GPU; null: by this one
}
export interface CaseTiming extends TimingFigures { size: Record<string, number>; distribution: string; gflops: number | null }
export interface Timing extends TimingFigures { copy_gbps: number | null; per_kernel: KernelTime[]; per_case: CaseTiming[] }
export interface AccessHint {
  kernel: string; line: number | null; space: string; access: string; requests: number; lanes_active: number;
  lanes_present: number; sectors_per_request: number | null; fewest_sectors_per_request: number | null;
  bank_ways: number | null; worst_bank_ways: number | null; hint: string;
}
export interface KernelEstimate { kernel: string; test: string; bytes: number; lower_bound_us: number }
export interface PerformanceHints { tests: number; reference: string; accesses: AccessHint[]; kernels: KernelEstimate[] }
export interface Result {
  problem: string; backend: string; device: string | null; isolation: string[]; seed: number; verdict: Verdict;
  message: string; compile: CompileInfo; tests: TestResult[]; timing: Timing | null; hints?: PerformanceHints | null;
  notes: string[]; judge_version: string; partial?: boolean; smaller_failure?: TestResult | null;
  output?: OutputPart[]; phases?: PhaseTime[];
}
export interface PhaseTime { name: string; seconds: number }

export interface UserRef { id: number; username: string }
export interface SubmissionSummary {
  id: number; problem_id: number; problem: string; user: UserRef; mode: Mode; status: Status;
  verdict: Verdict | null; message: string | null; attempts: number; backend: string | null; device: string | null;
  median_us: number | null; created_at: string; started_at: string | null; finished_at: string | null;
}
export interface SubmissionOut extends SubmissionSummary {
  filename: string; source: string; compile: CompileInfo | null; tests: TestResult[]; result: Result | null;
}
export interface SubmissionList { items: SubmissionSummary[]; next_before: number | null }

export interface LeaderboardEntry {
  rank: number; user: UserRef; submission_id: number; median_us: number; low_us: number; high_us: number; tied: boolean;
  submitted_at: string;
}
export interface AcceptedEntry { user: UserRef; submission_id: number; accepted_at: string; backend: string | null; submissions: number }
export interface Leaderboard { problem_id: number; devices: { device: string; entries: LeaderboardEntry[] }[]; accepted: AcceptedEntry[] }

export interface Finding { file: string; key: string | null; message: string }
export interface DraftOut { source: string; revision: number; updated_at: string }
export interface UploadedProblem {
  problem: ProblemSummary; published: boolean; uploaded_by: string | null; updated_at: string; submissions: number;
}
export interface UploadPreview { valid: boolean; findings: Finding[]; problem: ProblemDetail | null }
export interface Health { status: "ok"; version: string; backend: string; workers: number; queued: number; judging: number }
