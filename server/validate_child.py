"""`python -m server.validate_child FOLDER`: the validator's static checks, as one JSON line.

Runs in its own process, sandboxed (server.isolation), because the checks import the problem's reference.py.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def main() -> None:
    from judge.problems.loader import PROBLEM_FILE
    from judge.problems.validator import validate_folder

    folder = Path(sys.argv[1])
    try:
        report = validate_folder(folder, None)
        findings = ([{"file": f.file, "key": f.key, "message": f"to do: {f.message}"} for f in report.todos]
                    + [{"file": f.file, "key": f.key, "message": f.message} for f in report.findings])
        problem = None if report.problem is None else {"id": report.problem.id, "slug": report.problem.slug}
    except Exception as exc:   # the validator itself failed on this folder: report it as a finding
        findings = [{"file": str(folder / PROBLEM_FILE), "key": None, "message": f"{type(exc).__name__}: {exc}"}]
        problem = None
    sys.stdout.write("\n" + json.dumps({"problem": problem, "findings": findings}) + "\n")


if __name__ == "__main__":
    main()
