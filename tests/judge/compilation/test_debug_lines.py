"""Lines of the submission's source from its CPU build's line tables: read from the DWARF once, then
from the file kept beside the library, which a changed library no longer uses."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from judge.compilation import debug_lines
from judge.compilation.for_backend import build
from judge.problems.loader import load_problem


def _lines(library: Path) -> list[int | None]:
    debug_lines._tables.cache_clear()   # as a new process finds it
    addresses = debug_lines._rows(str(library))[0]
    return [debug_lines.source_line(library, address) for address in addresses]


def test_lines_come_from_the_kept_tables_while_the_library_is_unchanged(tmp_path):
    problem = load_problem(83)
    source = (problem.folder / "solutions" / "accepted" / "three_pass_scan.cu").read_text()
    library = tmp_path / "observed.so"
    shutil.copyfile(build(problem, source, backend="cpu", filename="scan.cu", arch=None).artifacts()["observed"], library)
    kept = Path(f"{library}.lines.json")

    from_dwarf = _lines(library)
    assert kept.exists() and any(line is not None for line in from_dwarf)
    assert _lines(library) == from_dwarf

    tables = json.loads(kept.read_text())
    kept.write_text(json.dumps({**tables, "lines": [None if line is None else line + 1000 for line in tables["lines"]]}))
    assert _lines(library) != from_dwarf   # the kept file is what was read
    os.utime(library, ns=(1, 1))           # the library changed since: its DWARF is read again
    assert _lines(library) == from_dwarf
