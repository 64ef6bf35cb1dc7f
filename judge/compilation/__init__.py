"""Building a submission: NVRTC for device code and g++ for host code (GPU), or g++ against the CUDA-on-CPU
runtime (CPU)."""
from judge.compilation.for_backend import build
from judge.compilation.result import BuildResult, KernelInfo

__all__ = ["build", "BuildResult", "KernelInfo"]
