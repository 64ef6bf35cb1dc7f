"""Reading NVRTC's log: a macro redefinition is the user's to see unless the judge's own header made it."""
from judge.source.diagnostics import SourceFile, TuMap, parse_nvrtc_log

SOURCE = "#define SCALE 2\n#define SCALE 3\n__global__ void k() {}\n"
JUDGE_HEADER = "/opt/judge/runtime/cudajudge_nvcc_names.h"


def _parse(log: str):
    tu = TuMap(("solution.cu",), lambda line, column: (line, column), ("/opt/judge/runtime", "/usr/include/cccl"))
    return parse_nvrtc_log(log, tu, SourceFile(SOURCE, "solution.cu"), SOURCE.splitlines())


def test_a_header_redefining_the_judges_compiler_macros_is_not_reported():
    log = ('/usr/include/cccl/cuda/std/climits(80): warning #47-D: incompatible redefinition of macro '
           f'"__DBL_DENORM_MIN__" (declared at line 62 of "{JUDGE_HEADER}")\n')
    assert _parse(log) == []


def test_the_users_own_macro_redefinition_is_reported_at_its_line():
    log = ('solution.cu(2): warning #47-D: incompatible redefinition of macro "SCALE" (declared at line 1)\n'
           '  #define SCALE 3\n          ^\n')
    found = _parse(log)
    assert [(d.line, d.severity) for d in found] == [(2, "warning")]
    assert 'redefinition of macro "SCALE"' in found[0].message
