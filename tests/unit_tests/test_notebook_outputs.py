"""scripts/notebooks.py: what counts as a changed output, and what a refresh rewrites.

The notebooks themselves are run and compared by `scripts/check.sh` (`python
scripts/notebooks.py --check`); these tests check the comparison on made-up cells.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import nbformat
from nbformat.v4 import new_code_cell, new_notebook, new_output

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("notebooks_script", ROOT / "scripts/notebooks.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


notebooks = _script()


def stdout(text: str) -> Any:
    return new_output("stream", name="stdout", text=text)


def test_what_varies_between_runs_is_normalised_away() -> None:
    one = (
        "service: http://127.0.0.1:39823 session trs_2yW4Acq9GFz6 link lt_siWgNZq6I-TZM5jt "
        "account ca_Y1t9EwL56nGi log_v07In9ZMJLsC at 2026-11-22T06:04:57.826993Z "
        "request id: e2525561cc744cf9921a34f378246c46 saved to /tmp/tmph8ix48qy/notes.md "
        'File "/tmp/ipykernel_30552/3184501801.py" <object at 0x7f3a2b1c9d60>'
    )
    two = (
        "service: http://127.0.0.1:41207 session trs_Q9xx81AbCdEf link lt_aaaaaaaaaaaa-bbbb "
        "account ca_Zz9Zz9Zz9Zz9 log_u4G7FgtJsThJ at 2026-12-01T00:00:01Z "
        "request id: 06f68e22-e4d3-4843-bdaf-03c1a9daec0c saved to /tmp/tmppqamu8dv/notes.md "
        'File "/tmp/ipykernel_7/12.py" <object at 0x55d1c0ffee00>'
    )
    assert notebooks.normalise(one) == notebooks.normalise(two)
    assert "127.0.0.1:<port>" in notebooks.normalise(one)
    # what a reader should notice still counts
    assert notebooks.normalise("3 open issues") != notebooks.normalise("4 open issues")
    assert notebooks.normalise("GITHUB_LIST_REPOSITORY_ISSUES") == "GITHUB_LIST_REPOSITORY_ISSUES"


def test_writes_to_one_stream_count_as_one_output() -> None:
    split = new_code_cell(outputs=[stdout("a\n"), stdout("b\n")])
    whole = new_code_cell(outputs=[stdout("a\nb\n")])
    assert notebooks.rendered(split) == notebooks.rendered(whole)
    assert [o.text for o in notebooks.outputs(split)] == ["a\nb\n"]
    assert [o.text for o in split.outputs] == ["a\n", "b\n"]  # the cell itself is untouched


def _notebook(*cells: Any) -> Any:
    notebook = new_notebook(cells=list(cells))
    notebook.metadata["language_info"] = {"name": "python", "version": "3.11.7"}
    return notebook


def chart(png: str) -> Any:
    return new_output(
        "display_data",
        data={"image/png": png, "text/plain": "<Figure size 700x260 with 1 Axes>"},
    )


def test_a_chart_counts_as_a_chart_not_as_its_pixels() -> None:
    # Another matplotlib release, or other fonts, draw other pixels from the same figures.
    here = new_code_cell(outputs=[stdout("every app tool 13.8 kB\n"), chart("iVBORw0KGgoAAA")])
    there = new_code_cell(outputs=[stdout("every app tool 13.8 kB\n"), chart("iVBORw0KGgoBBB")])
    assert notebooks.rendered(here) == notebooks.rendered(there)
    # a chart that went missing, or figures that changed, still count
    assert notebooks.rendered(here) != notebooks.rendered(new_code_cell(outputs=[stdout("x")]))
    other = new_code_cell(outputs=[stdout("every app tool 14.0 kB\n"), chart("iVBORw0KGgoAAA")])
    assert notebooks.rendered(here) != notebooks.rendered(other)


def test_a_refresh_rewrites_only_the_cells_whose_outputs_changed() -> None:
    saved = _notebook(
        new_code_cell("print(url)", execution_count=1, outputs=[stdout("http://127.0.0.1:1/\n")]),
        new_code_cell("print(n)", execution_count=2, outputs=[stdout("3 issues\n")]),
    )
    fresh = _notebook(
        new_code_cell("print(url)", execution_count=1, outputs=[stdout("http://127.0.0.1:2/\n")]),
        new_code_cell("print(n)", execution_count=2, outputs=[stdout("4 issues\n")]),
    )
    fresh.metadata["language_info"] = {"name": "python", "version": "3.13.0"}

    found = notebooks.differences(saved, fresh, "nb.ipynb")
    assert len(found) == 1
    assert "nb.ipynb cell 1 (saved)" in found[0]
    assert "-3 issues" in found[0]
    assert "+4 issues" in found[0]

    result = notebooks.refreshed(saved, fresh)
    assert result.cells[0].outputs[0].text == "http://127.0.0.1:1/\n"  # only the port differed
    assert result.cells[1].outputs[0].text == "4 issues\n"
    assert result.metadata["language_info"] == {"name": "python", "version": "3.11.7"}
    assert notebooks.differences(result, fresh, "nb.ipynb") == []
    assert nbformat.validate(result) is None


def test_a_refresh_saves_no_path_of_this_machine() -> None:
    where = f"{sys.prefix}/lib/python3/site-packages/langchain_toolrouter/custom_tools.py"
    trace = f'  File "{where}", line 3, in run\n  File "{ROOT}/notebooks/x.py", line 1\n'
    saved = _notebook(new_code_cell("run()", outputs=[]))
    fresh = _notebook(new_code_cell("run()", outputs=[stdout(trace)]))
    text = notebooks.refreshed(saved, fresh).cells[0].outputs[0].text
    assert str(ROOT) not in text
    assert sys.prefix not in text
    assert '".../langchain_toolrouter/custom_tools.py"' in text
    assert '".../notebooks/x.py"' in text


def test_ci_compares_the_saved_outputs_with_a_fresh_run() -> None:
    check = (ROOT / "scripts/check.sh").read_text(encoding="utf-8")
    assert "python scripts/notebooks.py --check" in check


def test_the_notebooks_page_lists_every_notebook() -> None:
    page = (ROOT / "docs/notebooks.md").read_text(encoding="utf-8")
    listed = re.findall(r"(?m)^\| `(\w+\.ipynb)` \|", page)
    assert listed == sorted(path.name for path in (ROOT / "notebooks").glob("*.ipynb"))
