"""Request and response bodies of the API (they make the OpenAPI schema)."""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from judge.result import CompileInfo, Result, TestResult

Role = Literal["student", "instructor", "admin"]
Mode = Literal["run", "submit"]
Status = Literal["queued", "judging", "done"]

USERNAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.\-]{2,31}$"
MIN_PASSWORD, MAX_PASSWORD = 8, 256     # characters
FILENAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}\.cu$"
GPU_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9 _.\-]{0,63}$"


def _clean_text(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("must be valid Unicode text (no unpaired surrogates)") from None
    return value


Text = Annotated[str, AfterValidator(_clean_text)]


class Error(BaseModel):
    detail: Any = Field(description="What is wrong: a message, or for an invalid problem "
                                    "{message, findings: [{file, key, message}]}")


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(pattern=USERNAME_PATTERN, description="3 to 32 letters, digits, '.', '_' or '-'")
    password: Text = Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)


class LoginIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: Text = Field(min_length=1, max_length=64)
    password: Text = Field(min_length=1, max_length=MAX_PASSWORD)
    bearer: bool = Field(True, description="Also issue a bearer API token (for scripts); a browser, which uses the "
                                           "session cookie, asks for none")


class UserOut(BaseModel):
    id: int
    username: str
    role: Role
    disabled: bool
    created_at: datetime


class LoginOut(BaseModel):
    token: str | None = Field(None, description="A bearer API token: send `Authorization: Bearer <token>` "
                                                "(none when the login asked for none)")
    token_type: Literal["bearer"] = "bearer"
    expires_at: datetime | None = None
    csrf_token: str = Field(description="For the browser session cookie: send it as X-CSRF-Token on POST/PATCH/DELETE")
    user: UserOut


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be blank")
    return value.strip()


class TokenIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[Text, AfterValidator(_not_blank)] = Field(
        min_length=1, max_length=64, examples=["laptop CLI"], description="What the token is for: 1 to 64 characters")


class TokenOut(BaseModel):
    id: int
    name: str | None = Field(description="Its name; `login` for the token a sign-in returned")
    created_at: datetime
    expires_at: datetime


class TokenCreated(TokenOut):
    token: str = Field(description="The secret, shown only now: send `Authorization: Bearer <token>`")


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    current_password: Text = Field(min_length=1, max_length=MAX_PASSWORD)
    new_password: Text = Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)


class PasswordChanged(BaseModel):
    revoked: int = Field(description="How many other sessions and tokens of the account were revoked")


class Titles(BaseModel):
    en: str
    zh: str


class ProblemSummary(BaseModel):
    id: int
    key: str
    slug: str
    title: Titles
    difficulty: str
    tags: list[str]
    origin: Literal["catalog", "uploaded"]
    has_samples: bool
    solved: bool | None = Field(None, description="Whether the signed-in user has an accepted `submit` "
                                                  "(absent when signed out)")


class DraftIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    source: str
    revision: int = Field(ge=0, description="The revision this text was edited from (0: no draft yet)")


class DraftOut(BaseModel):
    source: str
    revision: int
    updated_at: datetime


class UploadedProblem(BaseModel):
    """An uploaded problem as its instructors manage it."""
    problem: ProblemSummary
    published: bool = Field(description="Listed and open to submissions; an unpublished problem keeps its "
                                        "submissions and results")
    uploaded_by: str | None
    updated_at: datetime
    submissions: int


class SolvedProblem(BaseModel):
    problem: ProblemSummary
    submission_id: int = Field(description="The first accepted `submit`")
    solved_at: datetime


class TestGroupOut(BaseModel):
    name: str
    sample: bool
    gpu_only: bool
    sizes: list[dict[str, int | float]]
    distributions: list[str]
    cases: list[str]


class ProblemDetail(ProblemSummary):
    statement: dict[str, str | None]
    starter: str | None
    signature: str
    params: list[dict[str, Any]]
    specials: bool
    tolerance: dict[str, Any]
    tests: list[TestGroupOut]
    benchmark: dict[str, Any]
    limits: dict[str, Any]


class SubmissionIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"problem": 1, "mode": "run", "source": (
            "#include <cuda_runtime.h>\n"
            "__global__ void k(const float* in, float* out, int n) {\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < n) out[i] = fmaxf(in[i], 0.f);\n}\n"
            'extern "C" void solve(const float* input, float* output, int N) {\n'
            "    k<<<(N + 255) / 256, 256>>>(input, output, N);\n}\n")}]})
    problem: int | Annotated[Text, Field(max_length=100)] = Field(description="The problem: its id, `problemNN` or its slug")
    source: str = Field(description="The .cu file, UTF-8, at most 64 KiB")
    mode: Mode = Field(description="run: the visible sample tests; submit: every test, then timing on a GPU")
    filename: str = Field(default="solution.cu", pattern=FILENAME_PATTERN)
    gpu: str | None = Field(default=None, pattern=GPU_PATTERN, examples=["H100 80GB HBM3"],
                            description="Judge on this GPU model only (as nvidia-smi names it, or its key such as "
                                        "`h100-80gb-hbm3`); default: any worker. Honoured by scale-out workers")


class UserRef(BaseModel):
    id: int
    username: str


class SubmissionSummary(BaseModel):
    id: int
    problem_id: int
    problem: str
    user: UserRef
    mode: Mode
    status: Status
    verdict: str | None
    message: str | None
    attempts: int
    gpu: str | None = Field(description="The GPU model asked for (its key), or null: any worker")
    backend: str | None
    device: str | None
    median_us: float | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class SubmissionOut(SubmissionSummary):
    filename: str
    source: str
    compile: CompileInfo | None = Field(None, description="As soon as the build is done")
    tests: list[TestResult] = Field(description="The tests finished so far (all of them when done)")
    result: Result | None = Field(None, description="The Result, when status is done (absent for a closed IE)")


class SubmissionList(BaseModel):
    items: list[SubmissionSummary]
    next_before: int | None = Field(None, description="Pass as `before` for the next (older) page")


class LeaderboardEntry(BaseModel):
    rank: int = Field(description="1 + the entries whose interval lies wholly below this one's")
    user: UserRef
    submission_id: int
    median_us: float
    low_us: float = Field(description="The median's interval (the headline case's samples and IQR): "
                                      "entries whose intervals overlap are not told apart")
    high_us: float
    tied: bool = Field(description="Its interval overlaps another entry's")
    submitted_at: datetime


class DeviceBoard(BaseModel):
    device: str
    entries: list[LeaderboardEntry]


class AcceptedEntry(BaseModel):
    user: UserRef
    submission_id: int = Field(description="The user's first accepted `submit`")
    accepted_at: datetime
    backend: str | None
    submissions: int = Field(description="How many `submit`s the user made up to and including it")


class Leaderboard(BaseModel):
    problem_id: int
    devices: list[DeviceBoard] = Field(description="Timed on a GPU, timing checks passed: the best median per "
                                                   "user, per GPU model, with its interval; overlapping ones tie")
    accepted: list[AcceptedEntry] = Field(description="Everyone with an accepted `submit` on any backend, "
                                                      "in the order of their first one")


class Queued(BaseModel):
    queued: int


class Finding(BaseModel):
    file: str = Field(description="Relative to the problem folder")
    key: str | None = Field(description="The key or test the finding is about")
    message: str


class UploadPreview(BaseModel):
    """What publishing a problem zip would add, before anything is written."""
    valid: bool = Field(description="No findings: `POST /api/problems` with the same zip would add it")
    findings: list[Finding]
    problem: ProblemDetail | None = Field(None, description="The problem as learners would see it "
                                                            "(absent when problem.toml does not parse)")


class UserPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: Role | None = None
    disabled: bool | None = None


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    backend: str
    workers: int
    queued: int
    judging: int
