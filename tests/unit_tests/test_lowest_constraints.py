"""scripts/lowest-constraints.txt pins each lower bound pyproject.toml declares, so the CI run
on the lowest releases (scripts/check_lowest.sh) tests what the bounds claim."""

from __future__ import annotations

import sys
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    from pip._vendor import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]


def _pins() -> dict[str, Version]:
    pins = {}
    for line in (ROOT / "scripts" / "lowest-constraints.txt").read_text().splitlines():
        text = line.split("#", 1)[0].strip()
        if text:
            name, _, version = text.partition("==")
            pins[name.strip()] = Version(version.strip())
    return pins


def test_every_lower_bound_is_pinned_at_its_lowest_release() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = [*project["dependencies"], *project["optional-dependencies"]["emulator"]]
    pins = _pins()
    for text in declared:
        requirement = Requirement(text)
        lower = [Version(s.version) for s in requirement.specifier if s.operator == ">="]
        assert lower, f"{text}: no lower bound to test"
        pinned = pins.get(requirement.name)
        assert pinned is not None, f"{requirement.name} is not pinned in lowest-constraints.txt"
        assert pinned in requirement.specifier, f"{requirement.name}=={pinned} is not allowed"
        # The lowest release of the bound's own series (2.7 -> 2.7.x), not a later series.
        assert pinned.release[:2] == lower[0].release[:2], (
            f"{requirement.name}: pinned {pinned}, but pyproject allows {lower[0]}"
        )
