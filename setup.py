"""The install-time build step; the project itself is described in pyproject.toml.

`pip install .` and `pip install -e .` both run the build's sub-commands, so both build the CPU
backend's runtime into the package (judge/prebuilt), and no judge waits for it. A runtime that does not
build here (no g++, an error) is left to the first CPU judge, as when the package's copy is stale.
"""
import sys
import types
from pathlib import Path

from setuptools import Command, setup
from setuptools.command.build import build

ROOT = Path(__file__).resolve().parent


def _runtime_builder(package_root: Path):
    """judge.compilation.cpu_runtime.prebuild_runtime, imported from `package_root`. The build environment
    holds setuptools only, and the __init__ modules of judge.compilation and judge.source import pydantic and
    tree-sitter, which the runtime's build does not use: those two packages are entered without them."""
    sys.path.insert(0, str(package_root))
    for name in ("judge.compilation", "judge.source"):
        package = types.ModuleType(name)
        package.__path__ = [str(package_root / name.replace(".", "/"))]
        sys.modules[name] = package
    from judge.compilation.cpu_runtime import prebuild_runtime
    return prebuild_runtime


class BuildCpuRuntime(Command):
    description = "build the CPU backend's runtime into the package (judge/prebuilt)"
    user_options = []

    def initialize_options(self):
        self.build_lib = None
        self.editable_mode = False   # set by setuptools for `pip install -e`: the package is the source tree
        self.outputs = []

    def finalize_options(self):
        self.set_undefined_options("build_py", ("build_lib", "build_lib"))

    def run(self):
        package_root = ROOT if self.editable_mode else Path(self.build_lib).resolve()
        print(f"cudajudge: building the CPU backend's runtime into {package_root / 'judge' / 'prebuilt'}", flush=True)
        try:
            folder = _runtime_builder(package_root)()
        except Exception as exc:   # never fails the install: the first CPU judge builds it instead
            reason = " ".join(line.strip() for line in str(exc).splitlines() if line.strip())[:300]
            print(f"cudajudge: the CPU backend's runtime was not built ({type(exc).__name__}: {reason}); "
                  "the first CPU judge builds it", flush=True)
            return
        self.outputs = [str(p) for p in folder.iterdir()]

    def get_outputs(self):
        return self.outputs


class Build(build):
    sub_commands = build.sub_commands + [("build_cpu_runtime", None)]


setup(cmdclass={"build": Build, "build_cpu_runtime": BuildCpuRuntime})
