"""`session.files` in-process: folder targets in both directions, and storage errors that say
what went wrong and how to fix it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from langchain_toolrouter.emulator import (
    DEFAULT_API_KEY,
    EmulatorState,
    async_transport,
    create_app,
    sync_transport,
)
from langchain_toolrouter.errors import BadRequestError, FileTransferError
from langchain_toolrouter.session import ToolRouter, ToolRouterSession

BASE_URL = "http://127.0.0.1"


@pytest.fixture
def app_state() -> tuple[object, EmulatorState]:
    app = create_app()
    return app, app.state.emulator


@pytest.fixture
def session(app_state: tuple[object, EmulatorState]) -> Iterator[ToolRouterSession]:
    app, _ = app_state
    with (
        httpx.Client(transport=sync_transport(app)) as http,  # type: ignore[arg-type]
        httpx.Client(transport=sync_transport(app)) as storage,  # type: ignore[arg-type]
        ToolRouter(
            api_key=DEFAULT_API_KEY, base_url=BASE_URL, http_client=http, storage_client=storage
        ) as router,
    ):
        yield router.create_session("files-user", toolkits=["notes"])


@pytest.fixture
def report(tmp_path: Path) -> Path:
    local = tmp_path / "report.csv"
    local.write_text("a,b\n1,2\n")
    return local


def test_an_upload_to_a_folder_keeps_the_file_name(
    session: ToolRouterSession, report: Path
) -> None:
    assert session.files.upload(report, "reports/") == "reports/report.csv"
    assert session.files.list().paths == ["reports/report.csv"]
    # Again, now that the folder exists: the same file is replaced, not refused.
    assert session.files.upload(report, "reports/") == "reports/report.csv"
    assert session.files.upload(str(report), "reports/2026/") == "reports/2026/report.csv"
    assert session.files.upload(report, "/") == "report.csv"  # the mount's root folder
    assert session.files.list().paths == [
        "report.csv",
        "reports/2026/report.csv",
        "reports/report.csv",
    ]
    assert session.files.download("reports/report.csv") == b"a,b\n1,2\n"


def test_bytes_to_a_folder_are_refused_before_any_request(
    session: ToolRouterSession, app_state: tuple[object, EmulatorState]
) -> None:
    _, state = app_state
    before = len(state.log)
    with pytest.raises(ValueError, match=r"'reports/' is a folder.*'reports/data\.bin'"):
        session.files.upload(b"x", "reports/")
    assert len(state.log) == before


def test_a_download_to_a_new_folder_creates_it(
    session: ToolRouterSession, report: Path, tmp_path: Path
) -> None:
    session.files.upload(report, "reports/q1.csv")
    saved = session.files.download("reports/q1.csv", to=f"{tmp_path / 'newdir'}/")
    assert saved == tmp_path / "newdir" / "q1.csv"
    assert saved.read_text() == "a,b\n1,2\n"
    nested = session.files.download("reports/q1.csv", to=f"{tmp_path / 'a' / 'b'}/")
    assert nested == tmp_path / "a" / "b" / "q1.csv"
    # Without the slash, a path that is not a folder yet is the file to write.
    plain = session.files.download("reports/q1.csv", to=tmp_path / "c" / "renamed.csv")
    assert plain == tmp_path / "c" / "renamed.csv"
    assert plain.is_file()


def test_a_path_the_mount_cannot_hold_is_refused_with_the_reason(
    session: ToolRouterSession,
) -> None:
    session.files.upload(b"x", "reports/q1.csv")
    # Refused when the upload URL is asked for: no URL is made for a path no file can be at.
    with pytest.raises(BadRequestError) as caught:
        session.files.upload(b"y", "reports")  # a folder already
    error = caught.value
    assert error.status == 400
    assert "the path is a folder" in str(error)
    assert "name a file rather than a folder" in str(error)


def test_a_storage_refusal_names_the_problem_and_the_fix(
    session: ToolRouterSession, app_state: tuple[object, EmulatorState]
) -> None:
    _, state = app_state
    state.mounts.max_upload_bytes = 4
    with pytest.raises(FileTransferError) as caught:
        session.files.upload(b"12345", "big.bin")  # refused by the storage, on the PUT
    error = caught.value
    assert error.status == 413
    assert "exceeds the 4 byte limit" in str(error)
    assert "Upload a smaller file" in str(error)  # the storage's suggested fix
    assert "signature" not in str(error)  # the URL is a credential: never in messages


async def test_async_twins_treat_a_trailing_slash_as_a_folder(
    app_state: tuple[object, EmulatorState], report: Path, tmp_path: Path
) -> None:
    app, _ = app_state
    async with (
        httpx.AsyncClient(transport=async_transport(app)) as http,  # type: ignore[arg-type]
        httpx.AsyncClient(transport=async_transport(app)) as storage,  # type: ignore[arg-type]
    ):
        router = ToolRouter(
            api_key=DEFAULT_API_KEY,
            base_url=BASE_URL,
            async_http_client=http,
            astorage_client=storage,
        )
        session = await router.acreate_session("files-user", toolkits=["notes"])
        assert await session.files.aupload(report, "reports/") == "reports/report.csv"
        with pytest.raises(ValueError, match="is a folder"):
            await session.files.aupload(b"x", "reports/")
        saved = await session.files.adownload("reports/report.csv", to=f"{tmp_path / 'new'}/")
        assert saved == tmp_path / "new" / "report.csv"
        assert saved.read_text() == "a,b\n1,2\n"
        await router.aclose()


async def test_async_twins_read_and_write_local_files_off_the_event_loop(
    app_state: tuple[object, EmulatorState],
    report: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A large file read or written on the loop would stall every other task: the async
    twins do their local file I/O on a worker thread."""
    threads: dict[str, int] = {}
    read, write = Path.read_bytes, Path.write_bytes

    def reading(path: Path) -> bytes:
        if path == report:  # (the in-process emulator keeps its own files too)
            threads["read"] = threading.get_ident()
        return read(path)

    def writing(path: Path, data: Any) -> int:
        if path == tmp_path / "copy.csv":
            threads["write"] = threading.get_ident()
        return write(path, data)

    monkeypatch.setattr(Path, "read_bytes", reading)
    monkeypatch.setattr(Path, "write_bytes", writing)
    app, _ = app_state
    async with (
        httpx.AsyncClient(transport=async_transport(app)) as http,  # type: ignore[arg-type]
        httpx.AsyncClient(transport=async_transport(app)) as storage,  # type: ignore[arg-type]
        ToolRouter(
            api_key=DEFAULT_API_KEY,
            base_url=BASE_URL,
            async_http_client=http,
            astorage_client=storage,
        ) as router,
    ):
        session = await router.acreate_session("files-user", toolkits=["notes"])
        await session.files.aupload(report, "reports/")
        await session.files.adownload("reports/report.csv", to=tmp_path / "copy.csv")
    loop_thread = threading.get_ident()
    assert set(threads) == {"read", "write"}
    assert loop_thread not in threads.values()


# --------------------------------------------------------------------------- bad arguments
#
# Each failed far from the argument (AttributeError on lstrip/endswith, TypeError on '<'), or
# said the wrong thing ("no such file" for a folder, "larger than -1 bytes"); now each is a
# TypeError or ValueError that names the argument and the fix, before any request.


@pytest.mark.parametrize(
    ("call", "error", "start"),
    [
        (lambda f: f.download(5), TypeError, "remote_path must be a str"),
        (lambda f: f.delete(None), TypeError, "remote_path must be a str"),
        (lambda f: f.list(prefix=5), TypeError, "prefix must be a str"),
        (lambda f: f.upload(b"x", 5), TypeError, "remote_path must be a str"),
        (lambda f: f.upload(5), TypeError, "source must be a local file's path"),
        (lambda f: f.upload(None, "a.txt"), TypeError, "source must be a local file's path"),
        (lambda f: f.upload(b"x", "a.bin", mimetype=5), TypeError, "mimetype must be"),
        (lambda f: f.upload(b"x", "a.bin", mimetype=""), ValueError, "mimetype must be"),
        (lambda f: f.download("a.txt", max_bytes="10"), TypeError, "max_bytes must be an int"),
        (lambda f: f.download("a.txt", max_bytes=True), TypeError, "max_bytes must be an int"),
        (lambda f: f.download("a.txt", max_bytes=-1), ValueError, "max_bytes must not be"),
        (lambda f: f.download("a.txt", to=5), TypeError, "to must be a local path"),
    ],
)
def test_bad_arguments_are_refused_by_name_before_any_request(
    session: ToolRouterSession,
    app_state: tuple[object, EmulatorState],
    call: Any,
    error: type[Exception],
    start: str,
) -> None:
    _, state = app_state
    before = len(state.log)
    with pytest.raises(error) as caught:
        call(session.files)
    assert type(caught.value) is error
    assert str(caught.value).startswith(start)
    assert len(state.log) == before


def test_a_folder_is_not_reported_as_a_missing_file(
    session: ToolRouterSession, tmp_path: Path
) -> None:
    with pytest.raises(IsADirectoryError, match="it is a directory") as caught:
        session.files.upload(tmp_path)
    assert "pass one file's path" in str(caught.value)
    with pytest.raises(FileNotFoundError, match=r"no such file.*text\.encode"):
        session.files.upload("hello world", "a.txt")  # text mistaken for a path


def test_max_bytes_zero_still_takes_an_empty_file(session: ToolRouterSession) -> None:
    session.files.upload(b"", "empty.txt")
    assert session.files.download("empty.txt", max_bytes=0) == b""
    session.files.upload(b"x", "one.txt")
    with pytest.raises(FileTransferError, match="raise max_bytes"):
        session.files.download("one.txt", max_bytes=0)


async def test_async_twins_refuse_the_same(session: ToolRouterSession) -> None:
    files = session.files
    with pytest.raises(TypeError, match="remote_path must be a str"):
        await files.adownload(5)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="max_bytes must not be"):
        await files.adownload("a.txt", max_bytes=-1)
    with pytest.raises(TypeError, match="prefix must be a str"):
        await files.alist(prefix=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="remote_path must be a str"):
        await files.aupload(b"x", 5)  # type: ignore[arg-type]
