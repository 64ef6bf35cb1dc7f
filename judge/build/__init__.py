"""Building a submission for the GPU: NVRTC for device code, g++ and the judge's runtime for host code."""
from judge.build.builder import build
from judge.build.result import BuildResult, KernelInfo

__all__ = ["build", "BuildResult", "KernelInfo"]
