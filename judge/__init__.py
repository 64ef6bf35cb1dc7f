"""cudajudge: a practice judge for CUDA kernels."""
__version__ = "0.1.0"
