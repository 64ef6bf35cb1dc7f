"""The CPU build's flags hold whatever the host compiler's defaults are."""
import subprocess

from judge.compilation.cpu_runtime import CXX, submission_flags


def test_kernel_printf_reaches_the_runtime_under_a_compiler_that_fortifies_by_default(tmp_path):
    # Ubuntu's g++ defines _FORTIFY_SOURCE when optimizing, which turns printf into __printf_chk: a
    # kernel's printf would bypass the runtime's (and its test's printf capture). Defined first here, as
    # such a compiler does before the command line's flags.
    source, object_file = tmp_path / "kernel.cpp", tmp_path / "kernel.o"
    source.write_text('#include <cstdio>\nvoid kernel(int i) { printf("thread %d\\n", i); }\n')
    subprocess.run([CXX, "-D_FORTIFY_SOURCE=2", *submission_flags(asan=False, observed=False), "-c", str(source),
                    "-o", str(object_file)], check=True)
    undefined = subprocess.run(["nm", "-u", str(object_file)], capture_output=True, text=True, check=True).stdout.split()
    assert "printf" in undefined and "__printf_chk" not in undefined
