"""The run child's system-call filter, installed after the harness is loaded and before any user
code (the submission's library, whose static constructors already run at load time).

Denied: network sockets, new processes (threads stay allowed: CUDA and the CPU backend use them),
program execution, tracing, other processes' memory, mounts and namespaces, kernel modules and
keys. A denied call fails with EPERM; the program goes on and usually reports the failure.
"""
from __future__ import annotations

import errno

CLONE_THREAD = 0x00010000
DENIED = (
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
    "fork", "vfork", "execve", "execveat",
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns",
    "kexec_load", "kexec_file_load", "reboot", "init_module", "finit_module", "delete_module",
    "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key",
    "swapon", "swapoff", "acct", "settimeofday", "clock_settime", "iopl", "ioperm",
)


def install() -> bool:
    """Install the filter; False where libseccomp is missing (the result's isolation says so)."""
    try:
        import pyseccomp as seccomp
        denied = seccomp.ERRNO(errno.EPERM)
        rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
        for name in DENIED:
            rules.add_rule(denied, name)
        # clone() makes processes unless CLONE_THREAD is set; clone3's flags sit behind a pointer the
        # filter cannot read, so it answers "not implemented" and the C library falls back to clone().
        rules.add_rule(denied, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0))
        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
        rules.load()
    except (ImportError, OSError, RuntimeError):
        return False
    return True
