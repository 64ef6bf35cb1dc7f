"""The run child's system-call filter, tested for real: each case starts a fresh Python process that
installs `sandbox.seccomp_filter` and then makes the call. The non-native-ABI calls are made from a
second thread, as in the CUDA-using run child: only a whole-process kill ends the process there.
"""
from __future__ import annotations

import errno
import platform
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
X86_64 = pytest.mark.skipif(platform.machine() != "x86_64", reason="an x86_64 ABI")

PRELUDE = """
import ctypes, mmap, os, resource, threading
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGSYS dumps core by default
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
if {filtered}:
    from sandbox import seccomp_filter
    assert seccomp_filter.install(), "the filter was not installed"
"""
IN_A_THREAD = """
t = threading.Thread(target=call, daemon=True)  # a killed thread would block the exit
t.start()
t.join(3)
print("alive", flush=True)
"""
X32_GETPID = """
def call():
    libc.syscall(0x40000000 + 39)
"""
INT80_GETPID = """
def call():
    page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    page.write(bytes([0xB8, 20, 0, 0, 0, 0xCD, 0x80, 0xC3]))  # mov eax, 20 (getpid); int 0x80; ret
    code = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(page)))
    print("int80", code() == os.getpid(), flush=True)
"""


def run(body: str, filtered: bool = True) -> subprocess.CompletedProcess:
    code = textwrap.dedent(PRELUDE.format(filtered=filtered)) + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=15)


def test_io_uring_is_denied():
    # 425-427 are io_uring's numbers on every architecture; without the filter setup gives an fd
    # and enter/register on fd -1 fail with EBADF/EINVAL, not EPERM.
    out = run("""
    params = ctypes.create_string_buffer(120)
    for nr, args in ((425, (8, params)), (426, (-1, 0, 0, 0, None, 0)), (427, (-1, 0, None, 0))):
        print(libc.syscall(nr, *args), ctypes.get_errno())
    """)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["-1", str(errno.EPERM)] * 3


@X86_64
def test_x32_system_call_kills_the_process():
    out = run(X32_GETPID + IN_A_THREAD)
    assert out.returncode == -signal.SIGSYS, (out.returncode, out.stdout, out.stderr)
    assert "alive" not in out.stdout


@X86_64
def test_int80_system_call_kills_the_process():
    control = run(INT80_GETPID + "call()\n", filtered=False)
    if "int80 True" not in control.stdout:
        pytest.skip(f"this kernel runs no i386 system calls: {control.returncode} {control.stderr[-200:]}")
    out = run(INT80_GETPID + IN_A_THREAD)
    assert out.returncode == -signal.SIGSYS, (out.returncode, out.stdout, out.stderr)
    assert "int80" not in out.stdout and "alive" not in out.stdout


def test_allowed_calls_still_work():
    out = run("""
    print(libc.syscall(39 if os.uname().machine == "x86_64" else 172) == os.getpid())
    t = threading.Thread(target=lambda: print(os.getpid() > 0))
    t.start()
    t.join()
    """)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]
