"""Reading a submission: policy checks, parsing, the device/host split and diagnostics."""
from judge.source.launches import rewrite_launches
from judge.source.prepare import PreparedSource, SourceRejected, prepare

__all__ = ["rewrite_launches", "prepare", "PreparedSource", "SourceRejected"]
