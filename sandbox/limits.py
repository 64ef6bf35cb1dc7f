"""Resource limits of a run child, set between fork and exec (so bubblewrap and the child inherit them)."""
from __future__ import annotations

import resource
import signal
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    output_bytes: int        # stdout + stderr: writes past it fail (EFBIG) and the verdict is OLE
    data_bytes: int          # heap and other private writable memory: a host memory bomb fails here
    cpu_seconds: int         # a backstop behind the wall-clock deadlines
    open_files: int = 256
    processes: int = 4096    # threads count too; process creation is also denied by seccomp

    def apply(self) -> None:
        for which, value in ((resource.RLIMIT_FSIZE, self.output_bytes), (resource.RLIMIT_DATA, self.data_bytes),
                             (resource.RLIMIT_CPU, self.cpu_seconds), (resource.RLIMIT_NOFILE, self.open_files),
                             (resource.RLIMIT_NPROC, self.processes), (resource.RLIMIT_CORE, 0)):
            resource.setrlimit(which, (value, value))
        # Past the file-size limit a write should fail, not kill the process with a core dump.
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    @staticmethod
    def names() -> list[str]:
        return ["rlimits(fsize,data,cpu,nofile,nproc,core=0)"]
