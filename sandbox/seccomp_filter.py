"""The run child's system-call filter, installed after the harness is loaded and before any user
code (the submission's library, whose static constructors already run at load time).

Denied with EPERM (the program goes on and usually reports the failure): network sockets, io_uring
(it can open sockets and files without the calls below), new processes (threads stay allowed: CUDA
and the CPU backend use them), program execution, tracing, other processes' memory, mounts and
namespaces, kernel modules and keys.

Killed at once, the whole process by SIGSYS: any system call through a non-native ABI, which the
rules above do not see. On x86_64 that is the i386 ABI (`int $0x80`, another audit arch) and the
x32 ABI (numbers with bit 0x40000000 set, same audit arch): libseccomp sends both to the bad-arch
action as long as x32 is not one of the filter's arches.
"""
from __future__ import annotations

import errno

CLONE_THREAD = 0x00010000
DENIED = (
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
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
        # The default, KILL_THREAD, would leave the other threads running (a hang, not a verdict).
        rules.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL_PROCESS)
        # The filter holds the native arch only. Never add_arch(X32): on an x86_64-only filter
        # libseccomp sends numbers >= 0x40000000 to the bad-arch action; with x32 added they would
        # meet the rules instead, whose default is ALLOW.
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
