"""The problem model: what `problem.toml` may say, validated with pydantic."""
from __future__ import annotations

import re
from enum import Enum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from judge.problems.expressions import ExpressionError, evaluate, names_in
from judge.problems.policies import POLICIES, Policy

DType = Literal[
    "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "float16", "float32", "float64",
]
ITEMSIZES = {"int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "int32": 4, "uint32": 4, "int64": 8, "uint64": 8,
             "float16": 2, "float32": 4, "float64": 8}

# The C spelling of each dtype, as it appears in a submission's signature.
C_TYPES: dict[str, str] = {
    "int8": "signed char", "uint8": "unsigned char", "int16": "short", "uint16": "unsigned short",
    "int32": "int", "uint32": "unsigned int", "int64": "long long", "uint64": "unsigned long long",
    "float16": "__half", "float32": "float", "float64": "double",
}

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Role(str, Enum):
    IN = "in"
    OUT = "out"
    INOUT = "inout"
    SCALAR = "scalar"


class ValueRange(Strict):
    """Half-open range [low, high) of generated values; bounds may name scalars ("num_bins + 8")."""
    low: str | float
    high: str | float


class Param(Strict):
    name: str
    role: Role
    dtype: DType
    shape: str | None = None           # element count expression for pointers: "n", "rows*cols"
    init: Literal["sentinel", "zeros"] = "sentinel"   # outputs only
    values: ValueRange | None = None   # inputs and scalars drawn at random
    generator: str | None = None       # a function of reference.py that makes this input
    default: str | None = None         # scalars: expression used when a test size does not set it

    @field_validator("name")
    @classmethod
    def _identifier(cls, v: str) -> str:
        if not _IDENT.match(v):
            raise ValueError(f"{v!r} is not a C identifier")
        return v

    @model_validator(mode="after")
    def _role_fields(self) -> "Param":
        if self.role is Role.SCALAR:
            if self.shape is not None:
                raise ValueError(f"scalar {self.name!r} cannot have a shape")
        elif self.shape is None:
            raise ValueError(f"pointer parameter {self.name!r} needs a shape expression")
        if self.init == "zeros" and self.role is not Role.OUT:
            raise ValueError(f"init = 'zeros' applies to role 'out' only, not {self.role.value!r}")
        return self

    @property
    def is_pointer(self) -> bool:
        return self.role is not Role.SCALAR

    @property
    def is_input(self) -> bool:
        return self.role in (Role.IN, Role.INOUT)

    @property
    def is_output(self) -> bool:
        return self.role in (Role.OUT, Role.INOUT)

    @property
    def c_type(self) -> str:
        base = C_TYPES[self.dtype]
        if self.role is Role.SCALAR:
            return base
        return f"const {base}*" if self.role is Role.IN else f"{base}*"

    @property
    def itemsize(self) -> int:
        return ITEMSIZES[self.dtype]

    @property
    def np_dtype(self) -> np.dtype:
        import numpy as np   # here: the judge's parent process needs no NumPy

        return np.dtype(self.dtype)


PolicyName = Literal[tuple(POLICIES)]   # the registry's names, in its order


class Tolerance(Strict):
    policy: PolicyName
    ulp: int = Field(default=0, ge=0)            # ulp policy: allowed distance in units in the last place
    c: float = Field(default=1.0, gt=0)          # sum_bound: the constant in c·√n·u·Σ|terms|
    output_rel: float | None = Field(default=None, ge=0)   # sum_bound: u_out; default the dtype's epsilon

    @property
    def rule(self) -> Policy:
        """The policy's object (judge.problems.policies): how outputs are checked under it."""
        return POLICIES[self.policy]


class TestGroup(Strict):
    """Named tests: every size in `sizes` crossed with every distribution."""
    name: str
    sizes: list[dict[str, int | float]] = Field(min_length=1)
    distributions: list[str] = Field(min_length=1)
    gpu_only: bool = False   # too large for the CPU backend
    sample: bool = False     # visible sample tests ("run" mode)

    @field_validator("name")
    @classmethod
    def _plain_name(cls, v: str) -> str:
        if not re.match(r"^[a-z0-9][a-z0-9_-]*$", v):
            raise ValueError(f"test group name {v!r} must be lower-case letters, digits, '-' or '_'")
        return v


class Benchmark(Strict):
    sizes: list[dict[str, int | float]] = Field(min_length=1)
    distributions: list[str] = Field(min_length=1)
    bytes: str                      # minimal device-memory traffic of one call, in bytes
    flops: str = "0"
    baseline: str | None = None     # what reference.baseline() runs, in words


class Limits(Strict):
    deadline_s: float = Field(default=2.0, gt=0)   # wall clock for one test's solve() on the GPU
    arena_mb: int = Field(default=1024, gt=0)      # device memory solve() may cudaMalloc
    # wall clock for the whole judge on the GPU (tests, then timing); the CPU backend gets
    # CPU_BUDGET_FACTOR times it. A flood of slow tests ends as TLE within it.
    budget_s: float = Field(default=300.0, gt=0)


class Titles(Strict):
    zh: str = Field(min_length=1)
    en: str = Field(min_length=1)


class Problem(Strict):
    id: int = Field(ge=1)
    slug: str
    title: Titles
    difficulty: Literal["easy", "medium", "hard"]
    tags: list[str] = Field(default_factory=list)
    params: list[Param] = Field(min_length=1)
    specials: bool = False   # NaN / Inf / denormal distributions allowed; the statement defines them
    tolerance: Tolerance
    tests: list[TestGroup] = Field(min_length=1)
    benchmark: Benchmark
    limits: Limits = Limits()
    _folder: Path | None = PrivateAttr(default=None)   # set by the loader

    @property
    def folder(self) -> Path:
        if self._folder is None:
            raise ValueError(f"problem {self.id} was not loaded from a folder")
        return self._folder

    @field_validator("slug")
    @classmethod
    def _slug(cls, v: str) -> str:
        if not re.match(r"^[a-z0-9]+(-[a-z0-9]+)*$", v):
            raise ValueError(f"slug {v!r} must be lower-case words joined by '-'")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> "Problem":
        names = [p.name for p in self.params]
        dupes = {n for n in names if names.count(n) > 1}
        if dupes:
            raise ValueError(f"duplicate parameter names: {sorted(dupes)}")
        scalars = {p.name for p in self.params if p.role is Role.SCALAR}
        if not any(p.is_output for p in self.params):
            raise ValueError("the signature has no output (role 'out' or 'inout')")
        for p in self.params:
            for label, expr in (("shape", p.shape), ("default", p.default)):
                if expr is None:
                    continue
                try:
                    unknown = names_in(expr) - scalars
                except ExpressionError as exc:
                    raise ValueError(f"param {p.name!r}: {label} {expr!r}: {exc}") from exc
                if unknown:
                    raise ValueError(f"param {p.name!r}: {label} {expr!r} names unknown scalars {sorted(unknown)}")
        groups = [g.name for g in self.tests]
        if len(set(groups)) != len(groups):
            raise ValueError("test group names must be unique")
        for where, sizes in [(f"tests '{g.name}'", g.sizes) for g in self.tests] + [("benchmark", self.benchmark.sizes)]:
            for size in sizes:
                unknown = set(size) - scalars
                if unknown:
                    raise ValueError(f"{where}: size {size} sets {sorted(unknown)}, which are not scalar parameters")
        for label, expr in (("benchmark.bytes", self.benchmark.bytes), ("benchmark.flops", self.benchmark.flops)):
            try:
                unknown = names_in(expr) - scalars
            except ExpressionError as exc:
                raise ValueError(f"{label} {expr!r}: {exc}") from exc
            if unknown:
                raise ValueError(f"{label} {expr!r} names unknown scalars {sorted(unknown)}")
        return self

    # --- derived views -------------------------------------------------------------------

    @property
    def key(self) -> str:
        return f"problem{self.id}"

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)

    @property
    def signature(self) -> str:
        args = ", ".join(f"{p.c_type} {p.name}" for p in self.params)
        return f'extern "C" void solve({args})'

    def scalars_for(self, size: dict[str, int | float], rng: np.random.Generator | None = None) -> dict[str, int | float]:
        """All scalar values of one test: the size's own, then defaults, then random draws."""
        values: dict[str, int | float] = dict(size)
        for p in self.params:
            if p.role is not Role.SCALAR or p.name in values:
                continue
            if p.default is not None:
                values[p.name] = evaluate(p.default, values)
            elif p.values is not None and rng is not None:
                low, high = (evaluate(str(b), values) for b in (p.values.low, p.values.high))
                values[p.name] = float(rng.uniform(low, high)) if p.dtype.startswith("float") else int(rng.integers(low, high))
            else:
                raise ExpressionError(f"scalar {p.name!r} has no value: set it in the size, or give it a default or values")
        for p in self.params:
            if p.role is Role.SCALAR:
                values[p.name] = float(values[p.name]) if p.dtype.startswith("float") else int(values[p.name])
        return values

    def element_count(self, param: Param, scalars: dict[str, int | float]) -> int:
        return int(evaluate(param.shape or "1", scalars))
