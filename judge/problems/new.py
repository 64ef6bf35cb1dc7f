"""`cudajudge new`: a problem folder written from judge/problems/template, whose every part still to
write carries a `cudajudge-todo:` mark that `cudajudge validate` lists."""
from __future__ import annotations

import re
from pathlib import Path
from string import Template

from judge.problems.loader import PROBLEM_FILE, ProblemError, folder_id, folder_slug, parse_problem, problem_folders

TEMPLATE = Path(__file__).with_name("template")
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SOLUTION_FOLDERS = ("solutions/accepted", "solutions/rejected")


def new_problem(slug: str, root: Path, problem_id: int | None = None, title: str | None = None) -> Path:
    """Write `root/NNN-slug/` from the template and return it; ValueError when the name or id is taken or invalid."""
    if not SLUG.match(slug):
        raise ValueError(f"{slug!r} is not a slug: use lowercase letters and digits joined by '-', e.g. 'row-softmax'")
    folders = problem_folders(root)
    taken = {folder_id(f): f for f in folders}
    problem_id = problem_id if problem_id is not None else max((i for i in taken if i is not None), default=0) + 1
    if not 1 <= problem_id <= 999:
        raise ValueError(f"problem id {problem_id} is outside 1 … 999")
    if problem_id in taken:
        raise ValueError(f"problem id {problem_id} is taken by {taken[problem_id].name}")
    clash = next((f.name for f in folders if folder_slug(f) == slug), None)
    if clash:
        raise ValueError(f"the slug {slug!r} is taken by {clash}")
    folder = root / f"{problem_id:03d}-{slug}"
    fields = dict(id=problem_id, slug=slug, title=title or slug.replace("-", " ").capitalize(), folder=folder.name)
    folder.mkdir(parents=True)
    (folder / PROBLEM_FILE).write_text(Template((TEMPLATE / PROBLEM_FILE).read_text()).substitute(fields))
    try:
        fields["signature"] = parse_problem(folder).signature
    except ProblemError as exc:   # the template itself is broken: the judge's fault, said plainly
        raise RuntimeError(f"the problem template does not parse: {exc}") from exc
    for template in sorted(TEMPLATE.iterdir()):
        if template.name != PROBLEM_FILE:
            (folder / template.name).write_text(Template(template.read_text()).substitute(fields))
    for name in SOLUTION_FOLDERS:
        (folder / name).mkdir(parents=True)
    return folder
