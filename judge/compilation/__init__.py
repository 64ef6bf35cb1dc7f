"""Building a submission for the GPU: NVRTC for device code, g++ and the judge's runtime for host code."""
from judge.compilation.builder import build
from judge.compilation.result import BuildResult, KernelInfo

__all__ = ["build", "BuildResult", "KernelInfo"]
