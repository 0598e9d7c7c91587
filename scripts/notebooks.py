"""Run the notebooks against the embedded emulator, and keep the outputs saved in them true.

    python scripts/notebooks.py              # re-run them all and save the outputs (make notebooks-refresh)
    python scripts/notebooks.py --check      # re-run them all; fail if a saved output differs (CI)
    python scripts/notebooks.py notebooks/03_custom_tools_and_toolkits.ipynb   # only these

Each notebook runs top to bottom in a fresh kernel with no ``COMPOSIO_*`` variables, so it starts
the embedded emulator; a cell that raises fails the run. A saved output and a fresh one are
compared after `normalise` (ports, ids, times, request ids, temporary paths: what differs from
run to run); an image (a chart) counts as an image, its pixels not compared. A refresh rewrites only the cells whose outputs changed beyond that, so running it
twice, or on another machine, changes nothing.
"""

from __future__ import annotations

import argparse
import copy
import difflib
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
TIMEOUT = 300  # seconds per cell

# What differs from one run of the same code to the next (or one machine to the next), each
# replaced by a placeholder before outputs are compared.
_VOLATILE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(127\.0\.0\.1|localhost):\d+"), r"\1:<port>"),
    (
        re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?"),
        "<time>",
    ),
    # the emulator's ids: sessions, links, accounts, logs, requests, toolkit versions
    (re.compile(r"\b(trs|lt|ca|log|req|tk)_[A-Za-z0-9_-]{6,}"), r"\1_<id>"),
    (re.compile(r"\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b"), "<uuid>"),
    (re.compile(re.escape(tempfile.gettempdir()) + r"/tmp[\w-]+"), "<tmpdir>"),
    (re.compile(r"[^\s\"']*/ipykernel_\d+/\d+\.py"), "<cell>"),
    (re.compile(r"\b0x[0-9a-fA-F]{6,}\b"), "<address>"),
    (re.compile(r"\x1b\[[0-9;]*m"), ""),  # colours in tracebacks
)

# Where this machine keeps the code (a checkout, a virtual environment), as it would appear in a
# traceback; saved outputs show ".../" instead.
_LOCAL_PATHS = re.compile(
    r"/[^\s\"']*/(?:site|dist)-packages/|"
    + "|".join(re.escape(str(path)) + "/" for path in (ROOT, Path(sys.prefix)))
)


def normalise(text: str) -> str:
    """`text` with what varies between runs replaced by placeholders."""
    for pattern, placeholder in _VOLATILE:
        text = pattern.sub(placeholder, text)
    return text


def outputs(cell: Any) -> list[Any]:
    """A code cell's outputs, consecutive writes to one stream merged into one (a kernel splits
    them as it flushes, differently from run to run)."""
    merged: list[Any] = []
    for output in cell.get("outputs", []):
        previous = merged[-1] if merged else None
        if (
            output.output_type == "stream"
            and previous is not None
            and previous.output_type == "stream"
            and previous.name == output.name
        ):
            previous.text += output.text
        else:
            merged.append(copy.deepcopy(output))
    return merged


def rendered(cell: Any) -> str:
    """What a reader sees of a code cell's outputs, normalised, one block per output."""
    blocks = []
    for output in outputs(cell):
        kind = output.output_type
        if kind == "stream":
            blocks.append(f"[{output.name}]\n{output.text}")
        elif kind == "error":
            trace = "\n".join(output.get("traceback", []))
            blocks.append(f"[error {output.ename}: {output.evalue}]\n{trace}")
        else:
            for mime, value in sorted(output.get("data", {}).items()):
                text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
                if mime.startswith("image/"):
                    # A chart's pixels depend on the plotting library's release and fonts; the
                    # figures it shows are printed beside it, and those are compared.
                    text = "<image>"
                blocks.append(f"[{kind} {mime}]\n{text}")
    return normalise("\n".join(blocks))


def execute(path: Path) -> Any:
    """The notebook at `path` run top to bottom in a fresh kernel against the embedded emulator
    (raises `nbclient.exceptions.CellExecutionError` naming the cell that failed)."""
    notebook = nbformat.read(path, as_version=4)
    env = {name: value for name, value in os.environ.items() if not name.startswith("COMPOSIO_")}
    env["PYTHONHASHSEED"] = "0"  # a printed set comes out in the same order every run
    client = NotebookClient(
        notebook,
        timeout=TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
    )
    # The kernel's own log (e.g. a warning that it listens on loopback TCP) is shown only when
    # the kernel fails; a cell's error comes back as its output.
    with tempfile.TemporaryFile("w+", encoding="utf-8") as kernel_log:
        try:
            client.execute(env=env, stderr=kernel_log)
        except CellExecutionError:
            raise
        except Exception:
            kernel_log.seek(0)
            sys.stderr.write(kernel_log.read())
            raise
    return notebook


def differences(saved: Any, fresh: Any, name: str) -> list[str]:
    """A unified diff per code cell whose saved outputs differ from the fresh run's."""
    found = []
    for index, (old, new) in enumerate(zip(saved.cells, fresh.cells, strict=True)):
        if old.cell_type != "code" or rendered(old) == rendered(new):
            continue
        diff = difflib.unified_diff(
            rendered(old).splitlines(),
            rendered(new).splitlines(),
            f"{name} cell {index} (saved)",
            f"{name} cell {index} (fresh run)",
            lineterm="",
        )
        found.append("\n".join(diff))
    return found


def refreshed(saved: Any, fresh: Any) -> Any:
    """`saved` with the outputs of the fresh run in each code cell whose outputs changed; the
    other cells, and the notebook's metadata, as they were."""
    result = copy.deepcopy(saved)
    for cell, new in zip(result.cells, fresh.cells, strict=True):
        if cell.cell_type != "code" or rendered(cell) == rendered(new):
            continue
        cell.outputs = [_scrubbed(output) for output in outputs(new)]
        cell.execution_count = new.execution_count
    return result


def _scrubbed(output: Any) -> Any:
    """An output with this machine's paths shortened to ".../"."""
    if output.output_type == "stream":
        output.text = _LOCAL_PATHS.sub(".../", output.text)
    elif output.output_type == "error":
        output.traceback = [_LOCAL_PATHS.sub(".../", line) for line in output.traceback]
    else:
        for mime, value in output.get("data", {}).items():
            if isinstance(value, str):
                output.data[mime] = _LOCAL_PATHS.sub(".../", value)
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: notebooks/*.ipynb")
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if a saved output is stale"
    )
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted(NOTEBOOKS.glob("*.ipynb"))
    stale = []
    for path in paths:
        name = path.resolve().relative_to(ROOT).as_posix()
        saved = nbformat.read(path, as_version=4)
        try:
            fresh = execute(path)
        except CellExecutionError as exc:
            print(f"{name}: a cell failed")
            stale.append(f"{name}: a cell failed:\n{exc}")
            continue
        found = differences(saved, fresh, name)
        if args.check:
            print(f"{name}: {'saved outputs differ from a fresh run' if found else 'ok'}")
            stale += found
        elif found:
            path.write_text(nbformat.writes(refreshed(saved, fresh)) + "\n", encoding="utf-8")
            print(f"{name}: saved the outputs of {len(found)} cell(s)")
        else:
            print(f"{name}: unchanged")
    if stale:
        print("\n\n".join(stale))
        print(
            "\nFix the cells that failed; outputs that differ are not what the code prints "
            "now: refresh them with `make notebooks-refresh` (python scripts/notebooks.py) and "
            "commit the result."
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
