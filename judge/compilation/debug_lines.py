"""Where in the submission's own source an address of its CPU build lies, from the build's line
tables (g++ -g1). The CPU runtime marks a fault's address in its message; the backend turns the mark
into the line, or drops it when the address lies elsewhere (a header, the runtime, a library)."""
from __future__ import annotations

import bisect
import json
import os
import re
from functools import lru_cache
from pathlib import Path

from judge.cache_paths import keep_json

# Both written by judge/runtime/cpu/src/diagnostics.cpp: an address; two addresses and the texts for
# "on one line" and "not".
LINE_MARK = re.compile("\x1f([0-9a-f]+)\x1f")
LINE_CHOICE = re.compile("\x1d([0-9a-f]+)\x1d([0-9a-f]+)\x1d([^\x1d]*)\x1d([^\x1d]*)\x1d")


def with_source_lines(message: str, library: Path) -> str:
    def line_of(mark: re.Match) -> str:
        line = source_line(library, int(mark.group(1), 16))
        return f" on line {line}" if line else ""

    def choice(mark: re.Match) -> str:
        first, second = (source_line(library, int(mark.group(i), 16)) for i in (1, 2))
        return mark.group(3) if first is not None and first == second else mark.group(4)
    return LINE_MARK.sub(line_of, LINE_CHOICE.sub(choice, message))


def source_line(library: Path, offset: int) -> int | None:
    """The line of the submission's file that holds the instruction at `offset` in `library`; for an
    instruction of a header's function inlined there (an atomicAdd), the line that calls it."""
    addresses, lines, inlined = _tables(str(library))
    i = bisect.bisect_right(addresses, offset) - 1
    if i >= 0 and lines[i] is not None:
        return lines[i]
    calls = [(hi - lo, line) for lo, hi, line in inlined if lo <= offset < hi]
    return min(calls)[1] if calls else None


@lru_cache(maxsize=4)
def _tables(library: str) -> tuple[list[int], list[int | None], list[tuple[int, int, int]]]:
    """_rows and _inlined_calls of `library`, kept in a file beside it by the first process that read them
    (reading DWARF takes a fifth of a second; every judge of a cached build looks lines up), valid while
    the library's size and modification time are those it was read at."""
    kept, stat = Path(library + ".lines.json"), os.stat(library)
    stamp = [stat.st_size, stat.st_mtime_ns]
    try:
        tables = json.loads(kept.read_text())
        if tables["stamp"] == stamp:
            return tables["addresses"], tables["lines"], [tuple(call) for call in tables["inlined"]]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    addresses, lines = _rows(library)
    inlined = _inlined_calls(library)
    keep_json(kept, {"stamp": stamp, "addresses": addresses, "lines": lines, "inlined": inlined})
    return addresses, lines, inlined


def _submission_units(dwarf):
    """(unit, line program, whether a file index is the unit's own file) of each compile unit of the
    submission: it is compiled from a relative path, the runtime's sources from absolute ones. The
    submission's object is linked before the runtime's, so the search ends at the first runtime unit
    after it (reading each unit's name costs its abbreviation table: a tenth of a second for them all)."""
    found = False
    for unit in dwarf.iter_CUs():
        name = unit.get_top_DIE().attributes.get("DW_AT_name")
        own = name is not None and not name.value.startswith(b"/")
        if not own and found:
            return
        program = dwarf.line_program_for_CU(unit) if own else None
        if program is None:
            continue
        found = True
        primary = Path(name.value.decode(errors="replace")).name
        files = program["file_entry"]
        first = 0 if program.header.version >= 5 else 1

        def own_file(index: int, files=files, first=first, primary=primary) -> bool:
            return 0 <= index - first < len(files) and files[index - first].name.decode(errors="replace") == primary
        yield unit, program, own_file


def _rows(library: str) -> tuple[list[int], list[int | None]]:
    """The line table as (addresses, lines) sorted by address; None where a row is not the
    submission's file or ends a sequence."""
    from elftools.elf.elffile import ELFFile

    rows: list[tuple[int, int | None]] = []
    with open(library, "rb") as stream:
        elf = ELFFile(stream)
        if not elf.has_dwarf_info():
            return [], []
        dwarf = elf.get_dwarf_info()
        for unit, program, own_file in _submission_units(dwarf):
            for entry in program.get_entries():
                state = entry.state
                if state is None:
                    continue
                own = not state.end_sequence and own_file(state.file)
                rows.append((state.address, state.line if own else None))
    rows.sort(key=lambda row: row[0])
    return [a for a, _ in rows], [line for _, line in rows]


def _inlined_calls(library: str) -> list[tuple[int, int, int]]:
    """(start, end, line) of each function inlined into the submission's code at a call on that
    line of the submission's file."""
    from elftools.elf.elffile import ELFFile

    calls: list[tuple[int, int, int]] = []
    with open(library, "rb") as stream:
        elf = ELFFile(stream)
        if not elf.has_dwarf_info():
            return calls
        dwarf = elf.get_dwarf_info()
        ranges = dwarf.range_lists()
        for unit, program, own_file in _submission_units(dwarf):
            top = unit.get_top_DIE()
            base = top.attributes["DW_AT_low_pc"].value if "DW_AT_low_pc" in top.attributes else 0
            for die in unit.iter_DIEs():
                if die.tag != "DW_TAG_inlined_subroutine" or "DW_AT_call_line" not in die.attributes:
                    continue
                if not own_file(die.attributes["DW_AT_call_file"].value):
                    continue
                line = die.attributes["DW_AT_call_line"].value
                if "DW_AT_low_pc" in die.attributes and "DW_AT_high_pc" in die.attributes:
                    lo, high = die.attributes["DW_AT_low_pc"].value, die.attributes["DW_AT_high_pc"]
                    calls.append((lo, high.value if high.form == "DW_FORM_addr" else lo + high.value, line))
                elif "DW_AT_ranges" in die.attributes and ranges is not None:
                    start = base
                    for entry in ranges.get_range_list_at_offset(die.attributes["DW_AT_ranges"].value, cu=unit):
                        if hasattr(entry, "base_address"):   # a base address entry: later offsets count from it
                            start = entry.base_address
                        else:
                            shift = 0 if getattr(entry, "is_absolute", False) else start
                            calls.append((shift + entry.begin_offset, shift + entry.end_offset, line))
    return calls
