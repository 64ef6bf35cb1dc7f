"""CPU builds: a submission compiled by g++ as one translation unit against the CUDA-on-CPU runtime.

The file is rewritten in place, line for line, before g++ sees it:
  - kernel launches become calls of `cudajudge::launch` (judge.source.launches); a bare template
    or overloaded kernel name becomes a generic lambda, so its arguments deduce the instance;
  - `extern __shared__ T name[];` becomes a pointer to the block's dynamic shared memory;
  - each exit from a `__global__` function records its line, for the barrier diagnostics;
  - inline PTX of the common forms becomes the C++ it stands for (judge.source.inline_ptx).
The runtime header is force-included (from a precompiled header), `<cuda_runtime.h>` and friends
resolve to the runtime's own small headers, and the prebuilt runtime archive is linked in. The
result is a shared library exporting the judge's entry point into `solve` and the `cudajudge_cpu_*` ABI
(judge/runtime/cpu/cudajudge_cpu_abi.h).

Builds are cached by (source, file name, runtime sources, build pipeline, g++ version, flags)
under judge.cache_paths.cpu_build_root().
"""
from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from tree_sitter import Node

from judge.compilation.process import COMPILER_TIME_S, CompilerProcess, Finished, limit_message
from judge.compilation.result import LIBRARY_NAME
from judge.compilation.toolchain import RUNTIME_DIR
from judge.cache_paths import cpu_build_root
from judge.digest import digest
from judge.result import CompileInfo, Diagnostic
from judge.source.diagnostics import SourceFile, TuMap, parse_gcc_log, parse_link_log
from judge.source.headers import HOST_STD_DIR
from judge.source.inline_ptx import PtxNotSupported, device_asm, translate
from judge.source.launches import rewrite_launches
from judge.source.program import Space, analyze
from judge.source.syntax import Edit, EditedText, c_string_literal, parse, text, walk

CPU_RUNTIME_DIR = RUNTIME_DIR / "cpu"
CXX = "g++"
COMPILE_TIMEOUT_S = COMPILER_TIME_S
# The runtime's own build, once per machine and compiler: about 6 s on 2 idle cores, 48 s seen under load.
RUNTIME_BUILD_TIME_S = 600.0

_COMMON_FLAGS = [
    "-std=c++17", "-O2", "-fPIC", "-pthread",
    "-g1",                          # line tables: a fault in a kernel is reported at its source line
    "-fno-builtin-printf",          # kernel printf must reach the runtime's printf, not puts/putchar
    "-fstack-clash-protection",     # big frames probe every page, so they hit the fiber's guard page
    "-fno-strict-aliasing",         # CUDA code reinterprets pointers freely (float4 loads, bit casts)
    "-fwrapv",                      # signed overflow wraps, as it does on the GPU
]
# In an observed build every load, store and atomic calls the memory observer (judge/runtime/cpu/src/
# access_hooks.cpp): the compiler's ThreadSanitizer instrumentation, with the runtime's own callbacks and no
# sanitizer runtime. Only the submission (and the precompiled header it includes) is instrumented, never
# the runtime; the small tests run on it, the others on the plain build, which the calls would slow down.
_OBSERVED_FLAGS = ["-fsanitize=thread", "--param=tsan-instrument-func-entry-exit=0", "--param=tsan-distinguish-volatile=1"]
_SANITIZER_FLAGS = ["-fsanitize=address", "-fsanitize-recover=address", "-fno-omit-frame-pointer", "-g"]
# How a process that loads an AddressSanitizer build must run (see sanitizer_environment).
_SANITIZER_OPTIONS = ("halt_on_error=0:detect_leaks=0:allow_user_segv_handler=1:handle_segv=0:handle_sigbus=0:"
                      "handle_sigfpe=0:handle_sigill=0:handle_abort=0:print_summary=0")

# Where a submission's (and its precompiled header's) includes resolve: the runtime's headers, then
# <cuda/std/...> as the host library.
_INCLUDE_FLAGS = ["-I", str(CPU_RUNTIME_DIR / "include"), "-I", str(HOST_STD_DIR)]

# The CPU build's own logic: a change to it must not reuse builds made by its old version.
_CPU_PIPELINE_FILES = [Path(__file__).resolve()] + [Path(__file__).resolve().parent.parent / "source" / name
                                                    for name in ("launches.py", "syntax.py", "program.py",
                                                                 "diagnostics.py", "inline_ptx.py")]

# The CPU runtime's built-in variables, macros that a local variable of the same name must not meet.
_BUILTIN_VARIABLES = {"threadIdx", "blockIdx", "blockDim", "gridDim"}
_CLASS_KEYS = {"struct_specifier": "struct", "union_specifier": "union", "class_specifier": "class"}
_DECLARATOR_WRAPPERS = {"init_declarator", "array_declarator", "pointer_declarator", "reference_declarator",
                        "parenthesized_declarator"}

# The grammar does not know `__align__(N)`; it is blanked (same length) before parsing.
_ALIGN = re.compile(rb"__align__\s*\([^()]*\)")


class CpuRuntimeBuildError(RuntimeError):
    """The runtime itself failed to build: the judge's fault, never the submission's."""


def sanitizer_environment() -> dict[str, str]:
    """Environment for a process that loads a build made with asan=True: the sanitizer's runtime
    must be loaded first, and it must report and continue (the harness reads the report through
    the ABI) rather than abort, and leave faults to the CUDA runtime's own handler."""
    library = subprocess.run([CXX, "-print-file-name=libasan.so"], capture_output=True, text=True, check=True).stdout.strip()
    return {"LD_PRELOAD": library, "ASAN_OPTIONS": _SANITIZER_OPTIONS}


# ---- the rewrites ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class PreparedSource:
    text: str                        # what g++ compiles
    user_lines: list[bytes]          # the user's file
    launched_lines: list[bytes]      # the same after the launch rewrite
    rewrites: EditedText             # the CPU rewrites of the launched text

    def user_position(self, line: int, column: int) -> tuple[int, int | None]:
        """1-based (line, byte column) in the compiled text -> the same in the user's file; the
        column is dropped where it falls after a launch rewrite changed the line."""
        line, column = self.rewrites.source_position(line, column)
        if not 1 <= line <= len(self.user_lines):
            return line, None
        user, launched = self.user_lines[line - 1], self.launched_lines[line - 1]
        if user == launched or column <= len(os.path.commonprefix([user, launched])):
            return line, column
        return line, None


def prepare_source(source_text: str) -> PreparedSource:
    """The translation unit g++ compiles, with a map back to the user's file."""
    launched = rewrite_launches(source_text).encode("utf-8")
    masked = _ALIGN.sub(lambda m: b" " * len(m.group()), launched)
    tree = parse(masked)
    program = analyze(masked, tree)
    kernels = [k for k in program.kernels if k.space == Space.KERNEL and k.body is not None]
    edits = (_extern_shared_edits(tree.root_node) + _static_shared_edits(tree.root_node) + _kernel_exit_edits(kernels)
             + _deduced_launch_edits(tree.root_node, kernels) + _shadowed_builtin_edits(tree.root_node)
             + ptx_edits(device_asm(program)))
    rewrites = EditedText(launched, edits)
    return PreparedSource(rewrites.text.decode("utf-8"), source_text.encode("utf-8").split(b"\n"), launched.split(b"\n"), rewrites)


def _shadowed_builtin_edits(root: Node) -> list[Edit]:
    """A variable or parameter named like a built-in (`dim3 blockDim(256);` in host code) is renamed
    throughout its scope: the built-ins are macros in the CPU runtime (cudajudge/builtin_vars.h), and
    nvcc lets a local name shadow them."""
    renamed: dict[int, Edit] = {}
    for node in walk(root):
        if node.type != "identifier" or text(node) not in _BUILTIN_VARIABLES:
            continue
        declarator = node
        while declarator.parent is not None and declarator.parent.type in _DECLARATOR_WRAPPERS and \
                declarator.parent.child_by_field_name("declarator") == declarator:
            declarator = declarator.parent
        # `dim3 blockDim(threads);` parses as a function declaration; in a block it is the variable.
        if declarator.parent is not None and declarator.parent.type == "function_declarator" and \
                declarator.parent.child_by_field_name("declarator") == declarator and \
                declarator.parent.parent is not None and declarator.parent.parent.type == "declaration" and \
                declarator.parent.parent.parent is not None and declarator.parent.parent.parent.type == "compound_statement":
            declarator = declarator.parent
        holder = declarator.parent
        if holder is None or holder.type not in ("declaration", "parameter_declaration") or \
                declarator not in holder.children_by_field_name("declarator"):
            continue
        scope = holder.parent
        if holder.type == "parameter_declaration":
            while scope is not None and scope.type not in ("function_definition", "lambda_expression"):
                scope = scope.parent
        if scope is None or scope.type == "translation_unit":
            continue
        name = text(node)
        for use in walk(scope):
            if use.type == "identifier" and use.start_byte >= node.start_byte and text(use) == name:
                renamed[use.start_byte] = Edit(use.start_byte, use.end_byte, f"cudajudge_local_{name}".encode())
    return list(renamed.values())


def ptx_edits(statements: list[Node]) -> list[Edit]:
    """Each device code `asm(...)` as the C++ it stands for. A submission's untranslatable PTX was
    refused before the build; in a file built directly it becomes a compile error naming the PTX."""
    edits = []
    for node in statements:
        try:
            replacement = translate(node)
        except PtxNotSupported as unsupported:
            replacement = f'[] {{ static_assert(sizeof(char) == 0, {c_string_literal(str(unsupported))}); }}()'
        edits.append(Edit(node.start_byte, node.end_byte, (replacement + "\n" * text(node).count("\n")).encode("utf-8")))
    return edits


def _extern_shared_edits(root: Node) -> list[Edit]:
    """`extern __shared__ T a[], b[][4];` -> `auto* const a = cudajudge::dynamic_shared<T>(); ...`

    Every such array starts at the block's dynamic shared memory, as on the GPU. At namespace
    scope the pointer is thread_local: each OS thread that runs blocks has its own buffer."""
    edits = []
    for node, extern, declarators, element in _shared_declarations(root):
        arrays = [_array_name_and_suffix(d) for d in declarators]
        if not extern or not arrays or None in arrays:
            continue
        scope = "" if node.parent is not None and node.parent.type == "compound_statement" else "thread_local "
        replacement = " ".join(f'{scope}auto* const {name} = cudajudge::dynamic_shared<{element}{suffix}>("{name}");'
                               for name, suffix in arrays)
        replacement += "\n" * text(node).count("\n")
        edits.append(Edit(node.start_byte, node.end_byte, replacement.encode("utf-8")))
    return edits


def _static_shared_edits(root: Node) -> list[Edit]:
    """`__shared__ T a[N], b;` in a function -> `auto& a = cudajudge::static_shared<T[N], site>("a", "T[N]"); ...`

    The runtime then lays out each block's variables itself, knows their names and shapes, and
    the memory observer bounds every access by the variable it falls in. A type defined in the
    declaration (`__shared__ union { ... } temp;`) is defined just before, named if it has no
    name, since a template argument cannot define one. At namespace scope the declaration stays
    thread_local storage."""
    edits = []
    site = 0
    for node, extern, declarators, element in _shared_declarations(root):
        named = [_declared_name(d) for d in declarators]
        if extern or node.parent is None or node.parent.type != "compound_statement" or not declarators or None in named:
            continue
        definition = ""
        base = node.child_by_field_name("type")
        if base.type in _CLASS_KEYS and base.child_by_field_name("body") is not None:
            type_name = base.child_by_field_name("name")
            type_name = text(type_name) if type_name is not None else f"cudajudge_shared_type_{site}"
            definition = f"{_CLASS_KEYS[base.type]} {type_name} {text(base.child_by_field_name('body'))}; "
            qualifiers = [text(c) for c in node.children if c.type == "type_qualifier" and text(c) != "__shared__"]
            element = " ".join(qualifiers + [type_name])
        parts = []
        for declarator, name in zip(declarators, named):
            shape = (text(declarator)[:name.start_byte - declarator.start_byte]
                     + text(declarator)[name.end_byte - declarator.start_byte:])
            written = " ".join(f"{element}{shape}".split())
            parts.append(f'auto& {text(name)} = cudajudge::static_shared<{written}, {site}>("{text(name)}", '
                         f'{c_string_literal(written)});')
            site += 1
        replacement = definition + " ".join(parts)
        replacement += "\n" * (text(node).count("\n") - replacement.count("\n"))
        edits.append(Edit(node.start_byte, node.end_byte, replacement.encode("utf-8")))
    return edits


def _shared_declarations(root: Node):
    """Each declaration with `__shared__`: (node, whether `extern`, its declarators, the element type)."""
    for node in walk(root):
        if node.type != "declaration":
            continue
        words = [text(c) for c in node.children if c.type in ("storage_class_specifier", "type_qualifier")]
        element = _shared_element_type(node)
        if "__shared__" in words and element is not None:
            yield node, "extern" in words, node.children_by_field_name("declarator"), element


def _declared_name(declarator: Node) -> Node | None:
    """The identifier a declarator declares (`tile` in `tile[32][33]`, `p` in `(*p)[4]`); None for an initializer."""
    node = declarator
    while node.type in ("array_declarator", "pointer_declarator", "parenthesized_declarator", "reference_declarator"):
        inner = node.child_by_field_name("declarator")
        if inner is None:
            inner = next((c for c in node.named_children if c.type.endswith("declarator") or c.type == "identifier"), None)
        if inner is None:
            return None
        node = inner
    return node if node.type == "identifier" else None


def _shared_element_type(declaration: Node) -> str | None:
    base = declaration.child_by_field_name("type")
    if base is None:
        return None
    qualifiers = [text(c) for c in declaration.children if c.type == "type_qualifier" and text(c) != "__shared__"]
    return " ".join(qualifiers + [text(base)])


def _array_name_and_suffix(declarator: Node) -> tuple[str, str] | None:
    """`s[]` -> ("s", ""), `s[][32]` -> ("s", "[32]"): the name and the element's array bounds."""
    sizes = []
    node = declarator
    while node.type == "array_declarator":
        size = node.child_by_field_name("size")
        sizes.append(f"[{text(size)}]" if size is not None else "[]")
        inner = node.child_by_field_name("declarator")
        if inner is None:
            return None
        node = inner
    if node.type != "identifier" or not sizes or sizes[-1] != "[]":
        return None
    return text(node), "".join(reversed(sizes[:-1]))


def _kernel_exit_edits(kernels) -> list[Edit]:
    """Mark where threads leave each kernel: at every `return;` and at the closing brace."""
    edits = []
    for kernel in kernels:
        body = kernel.body
        closing = body.children[-1] if body.children else None
        if closing is None or closing.type != "}" or closing.is_missing:
            continue
        stack = list(body.children)
        while stack:
            node = stack.pop()
            if node.type in ("lambda_expression", "class_specifier", "struct_specifier", "union_specifier"):
                continue
            if node.type == "return_statement" and not node.named_children:
                edits.append(Edit(node.start_byte, node.end_byte, b"return cudajudge::kernel_return(__LINE__);"))
            stack.extend(node.children)
        edits.append(Edit(closing.start_byte, closing.start_byte, b"cudajudge::kernel_end(__LINE__); "))
    return edits


def _deduced_launch_edits(root: Node, kernels) -> list[Edit]:
    """`cudajudge::launch(k, ...)` where `k` names a kernel template or overloaded kernels: the
    name is no function pointer, so a generic lambda calls it and the arguments pick the kernel."""
    definitions: dict[str, int] = {}
    for kernel in kernels:
        definitions[kernel.name] = definitions.get(kernel.name, 0) + (2 if kernel.template is not None else 1)
    deduced = {name for name, count in definitions.items() if count > 1}
    edits = []
    for node in walk(root):
        if node.type != "call_expression":
            continue
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None or arguments is None or text(function) != "cudajudge::launch":
            continue
        first = next((c for c in arguments.named_children if c.type != "comment"), None)
        if first is None or first.type != "identifier" or text(first) not in deduced:
            continue
        name = text(first)
        edits.append(Edit(function.start_byte, function.end_byte, b"cudajudge::launch_deduced"))
        edits.append(Edit(first.start_byte, first.end_byte,
                          f'"{name}", [](auto... cudajudge_args) {{ {name}(cudajudge_args...); }}'.encode("utf-8")))
    return edits


# ---- the runtime: a prebuilt archive and a precompiled header per flag set -----------------------------

@dataclass(frozen=True)
class _Runtime:
    archive: Path
    header: Path            # force-included; its precompiled form sits next to it
    observed_header: Path   # the same, precompiled with the observer's instrumentation


@lru_cache(maxsize=1)
def compiler_version() -> str:
    try:
        return subprocess.run([CXX, "-dumpfullversion"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as exc:
        raise CpuRuntimeBuildError(f"the C++ compiler {CXX} is not usable: {exc}") from exc


def _runtime_files() -> list[Path]:
    shared = sorted(RUNTIME_DIR.glob("*.h"))   # the headers both runtimes include (min/max, nvcc's names, types)
    return [*shared, *sorted(p for p in (*CPU_RUNTIME_DIR.rglob("*"), *HOST_STD_DIR.rglob("*")) if p.is_file())]


def _flags(asan: bool) -> list[str]:
    """The runtime's flags."""
    return _COMMON_FLAGS + (_SANITIZER_FLAGS if asan else [])


def _submission_flags(asan: bool, observed: bool) -> list[str]:
    """The flags of the submission and of the precompiled header it includes."""
    return _flags(asan) + (_OBSERVED_FLAGS if observed else [])


def _runtime_layout(asan: bool) -> _Runtime:
    key = digest(*_runtime_files(), compiler_version(), *_flags(asan), "headers: plain, observed", *_OBSERVED_FLAGS,
                 hex_digits=24)
    folder = cpu_build_root() / f"runtime-{key}{'-asan' if asan else ''}"
    return _Runtime(folder / "libcudajudge_cpu.a", folder / "cudajudge_pch.h", folder / "cudajudge_observed_pch.h")


def runtime_ready() -> bool:
    """Whether this machine's CPU runtime is built; the first CPU judge builds it otherwise."""
    return _runtime_layout(False).archive.exists()


def prepare_runtime() -> float:
    """Build the CPU runtime unless it is built (another process building it is waited for); the seconds
    this took."""
    started = time.perf_counter()
    _runtime(False)
    return time.perf_counter() - started


def _runtime(asan: bool) -> _Runtime:
    runtime = _runtime_layout(asan)
    if runtime.archive.exists():
        return runtime
    folder, flags = runtime.archive.parent, _flags(asan)
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not runtime.archive.exists():
            _build_runtime(folder, runtime, flags, observable=not asan)
    return runtime


def _build_runtime(folder: Path, runtime: _Runtime, flags: list[str], observable: bool) -> None:
    scratch = Path(tempfile.mkdtemp(prefix=f"{folder.name}.", dir=folder.parent))
    try:
        sources = sorted((CPU_RUNTIME_DIR / "src").glob("*.cpp")) + sorted((CPU_RUNTIME_DIR / "src").glob("*.S"))
        objects = [scratch / (s.stem + ".o") for s in sources]
        commands = [[CXX, *flags, "-c", str(s), "-o", str(o)] for s, o in zip(sources, objects)]
        headers = [(runtime.header.name, flags)] + ([(runtime.observed_header.name, flags + _OBSERVED_FLAGS)] if observable else [])
        for name, header_flags in headers:
            header = scratch / name
            header.write_text(f'#include "{CPU_RUNTIME_DIR / "cuda_cpu.h"}"\n')
            commands.append([CXX, *header_flags, *_INCLUDE_FLAGS, "-x", "c++-header", str(header),
                             "-o", str(header) + ".gch"])
        ends = time.perf_counter() + RUNTIME_BUILD_TIME_S
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            results = list(pool.map(lambda c: CompilerProcess(c, cwd=scratch).wait(ends), commands))
        failed = [r for r in results if r.returncode != 0]
        if failed:
            raise CpuRuntimeBuildError("the CPU runtime does not build:\n" + failed[0].stderr[-4000:])
        subprocess.run(["ar", "rcs", str(scratch / runtime.archive.name), *map(str, objects)], check=True, capture_output=True)
        for o in objects:
            o.unlink()
        os.replace(scratch, folder)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# ---- building a submission --------------------------------------------------------------------------

def build_cpu(source_text: str, *, filename: str = "solution.cu", entry: str = "", asan: bool = False,
              observed: bool = False, timeout_s: float = COMPILE_TIMEOUT_S) -> tuple[CompileInfo, Path | None]:
    """Compile a submission for the CPU backend.

    Returns the compile result (diagnostics in the user's file and lines) and the built shared
    library, or None when the build failed. `entry` (judge.source.signature.entry_point) is
    compiled after the file's last line. With observed=True every memory access of the library
    calls the memory observer (docs/cpu-backend.md). With asan=True the library is instrumented by
    AddressSanitizer; load it in a process run with sanitizer_environment()."""
    if asan and observed:
        raise ValueError("a CPU build is observed or sanitized, not both")
    started = time.perf_counter()
    runtime = _runtime(asan)
    flags = _submission_flags(asan, observed)
    key = digest(*_CPU_PIPELINE_FILES, source_text, entry, filename, runtime.archive.parent.name, *flags, hex_digits=24)
    folder = cpu_build_root() / "builds" / key
    cached = _cached(folder, started)
    if cached is not None:
        return cached

    prepared = prepare_source(source_text)
    folder.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f"{key}.", dir=folder.parent))
    compiled_name = Path(filename).name or "solution.cu"
    try:
        (scratch / compiled_name).write_text(prepared.text + entry, encoding="utf-8")
        # Compiled and linked apart: a link with -fsanitize=thread would pull in the sanitizer's runtime.
        header = runtime.observed_header if observed else runtime.header
        compile_command = [CXX, *flags, f"-fdebug-prefix-map={scratch}=.", "-include", str(header),
                           *_INCLUDE_FLAGS, "-x", "c++", "-c", compiled_name, "-o", "solution.o"]
        link_command = [CXX, *_flags(asan), "-shared", "solution.o", "-Wl,--whole-archive", str(runtime.archive),
                        "-Wl,--no-whole-archive", "-Wl,-Bsymbolic", "-Wl,--no-undefined", "-o", LIBRARY_NAME]
        deadline = time.perf_counter() + timeout_s
        finished = CompilerProcess(compile_command, cwd=scratch).wait(deadline)
        linking = finished.returncode == 0 and finished.limit is None
        if linking:
            finished = CompilerProcess(link_command, cwd=scratch).wait(deadline)
        info = _compile_info(finished, prepared, source_text, filename, compiled_name, scratch, runtime, started, timeout_s,
                             linking)
        if finished.limit is not None:   # perhaps only a busy machine: not worth remembering
            return info, None
        (scratch / "compile.json").write_text(info.model_dump_json(), encoding="utf-8")
        try:
            os.replace(scratch, folder)
        except OSError:   # another process built the same submission first
            pass
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    library = folder / LIBRARY_NAME
    return info, (library if info.ok and library.exists() else None)


def _cached(folder: Path, started: float) -> tuple[CompileInfo, Path | None] | None:
    """The build in `folder`, if there is one, with the seconds this lookup took since `started`."""
    record = folder / "compile.json"
    if not record.exists():
        return None
    info = CompileInfo.model_validate_json(record.read_text(encoding="utf-8"))
    info.cached, info.seconds = True, round(time.perf_counter() - started, 3)
    library = folder / LIBRARY_NAME
    return info, (library if info.ok and library.exists() else None)


def _compile_info(finished: Finished, prepared: PreparedSource, source_text: str, filename: str, compiled_name: str,
                  scratch: Path, runtime: _Runtime, started: float, timeout_s: float, linking: bool) -> CompileInfo:
    seconds = time.perf_counter() - started
    if finished.limit is not None:
        message = limit_message(finished.limit, timeout_s)
        return CompileInfo(ok=False, log=message, seconds=seconds,
                           diagnostics=[Diagnostic(file=filename, message=message, stage="host")])
    roots = (str(CPU_RUNTIME_DIR / "include"), str(HOST_STD_DIR), str(CPU_RUNTIME_DIR), str(runtime.header.parent),
             str(scratch))
    log = finished.stderr
    for root in roots:
        log = log.replace(root.rstrip("/") + "/", "")
    tu = TuMap(names=(compiled_name, f"./{compiled_name}"), to_user=prepared.user_position, header_roots=roots)
    source = SourceFile(source_text, filename)
    diagnostics = (parse_link_log(finished.stderr, source) if linking else
                   parse_gcc_log(finished.stderr, tu, source, stage="host"))
    ok = finished.returncode == 0
    if not ok and not any(d.severity == "error" for d in diagnostics):
        diagnostics.append(Diagnostic(file=filename, message=(log.strip().splitlines() or ["the build failed"])[-1], stage="host"))
    return CompileInfo(ok=ok, log=log, diagnostics=diagnostics, seconds=seconds)
