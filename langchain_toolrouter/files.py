"""`SessionFiles`: the files of a session's mount (list, upload, download, delete).

Uploads and downloads go through presigned URLs: the service hands out a URL, and the bytes
travel to or from storage with a separate HTTP client that never carries the API key
(`_session.presigned`). Paths are relative to the mount (`"reports/q1.csv"`); a leading `/` is
dropped, as the service does. In async code, local files are read and written on a worker
thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
import mimetypes
import os
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, overload

from langchain_toolrouter._session.faces import AsyncFace, Face, SyncFace, run_sync
from langchain_toolrouter._session.presigned import (
    DEFAULT_MAX_DOWNLOAD_BYTES,
    aget_bytes,
    aput_bytes,
    get_bytes,
    put_bytes,
)
from langchain_toolrouter.client import ToolRouterClient
from langchain_toolrouter.types import MountItemList

if TYPE_CHECKING:
    from langchain_toolrouter._session.runtime import Runtime

__all__ = ["SessionFiles"]

_DEFAULT_MIMETYPE = "application/octet-stream"


def _remote_path(path: object, name: str = "remote_path") -> str:
    """The mount-relative path as sent; refused before any request when it is not a string,
    is empty or would leave the mount. Leading slashes go (the mount is the root); nothing
    else is changed."""
    if not isinstance(path, str):
        msg = (
            f"{name} must be a str, the file's path in the mount such as 'reports/q1.csv'; "
            f"got {path!r} ({type(path).__name__})"
        )
        raise TypeError(msg)
    cleaned = path.lstrip("/")
    if not cleaned.strip():
        msg = "a mount path is needed, e.g. 'reports/q1.csv'"
        raise ValueError(msg)
    if ".." in cleaned.replace("\\", "/").split("/"):
        msg = f"mount path {path!r} leaves the mount ('..'): give a path inside it"
        raise ValueError(msg)
    return cleaned


def _upload_source(
    source: object, remote_path: object, mimetype: object
) -> tuple[bytes | Path, str, str]:
    """The bytes (or the local file to read them from), the mount path and the content type of
    an upload (each argument checked: they come from callers' code, typed or not)."""
    if not (remote_path is None or isinstance(remote_path, str)):
        msg = (
            f"remote_path must be a str, the file's path in the mount such as 'reports/q1.csv' "
            f"(or a folder ending in '/'), or None; got {remote_path!r} "
            f"({type(remote_path).__name__})"
        )
        raise TypeError(msg)
    if not (mimetype is None or (isinstance(mimetype, str) and mimetype.strip())):
        msg = (
            f"mimetype must be a content type such as 'text/csv', or None to guess it from the "
            f"file name; got {mimetype!r}"
        )
        raise (ValueError if isinstance(mimetype, str) else TypeError)(msg)
    if isinstance(source, bytes | bytearray | memoryview):
        if remote_path is None:
            msg = "uploading bytes needs remote_path=..., the file's path in the mount"
            raise ValueError(msg)
        if remote_path.endswith("/"):
            msg = (
                f"remote_path {remote_path!r} is a folder, and bytes have no file name: give "
                f"the file's full path, e.g. {remote_path + 'data.bin'!r}"
            )
            raise ValueError(msg)
        data: bytes | Path = bytes(source)
        guess_from = remote_path
    else:
        if not isinstance(source, str | os.PathLike):
            msg = (
                f"source must be a local file's path (str or os.PathLike) or the bytes to "
                f"upload; got {type(source).__name__}. For text, pass text.encode() with "
                "remote_path=..."
            )
            raise TypeError(msg)
        local = Path(source)
        if local.is_dir():
            msg = (
                f"cannot upload {str(local)!r}: it is a directory; pass one file's path (to "
                "upload a folder, upload each file, e.g. for f in Path(folder).iterdir(): "
                "files.upload(f, 'folder/'))"
            )
            raise IsADirectoryError(msg)
        if not local.is_file():
            msg = f"cannot upload {str(local)!r}: no such file"
            if isinstance(source, str):
                msg += "; to upload text itself, pass text.encode() with remote_path=..."
            raise FileNotFoundError(msg)
        data = local
        if not remote_path:
            remote_path = local.name
        elif remote_path.endswith("/"):  # a folder of the mount: the file keeps its name
            remote_path += local.name
        guess_from = remote_path  # the name it will have, as for bytes
    content_type = mimetype or mimetypes.guess_type(guess_from)[0] or _DEFAULT_MIMETYPE
    return data, _remote_path(remote_path), content_type


def _check_download(to: object, max_bytes: object) -> None:
    """Refuse a `to` or `max_bytes` download cannot use, before any request."""
    if to is not None and not isinstance(to, str | os.PathLike):
        msg = (
            f"to must be a local path (str or os.PathLike; a folder ends in '/'), or None to "
            f"get the bytes; got {to!r} ({type(to).__name__})"
        )
        raise TypeError(msg)
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int):
        msg = (
            f"max_bytes must be an int, the largest download accepted in bytes (default "
            f"{DEFAULT_MAX_DOWNLOAD_BYTES}); got {max_bytes!r} ({type(max_bytes).__name__})"
        )
        raise TypeError(msg)
    if max_bytes < 0:
        msg = (
            f"max_bytes must not be negative; got {max_bytes}. Give the largest download "
            f"to accept in bytes (default {DEFAULT_MAX_DOWNLOAD_BYTES})"
        )
        raise ValueError(msg)


def _check_prefix(prefix: object) -> None:
    if prefix is not None and not isinstance(prefix, str):
        msg = (
            f"prefix must be a str, a path in the mount such as 'reports/', or None for every "
            f"file; got {prefix!r} ({type(prefix).__name__})"
        )
        raise TypeError(msg)


def _is_folder_spelling(to: str | os.PathLike[str]) -> bool:
    """Whether `to` is written as a folder: it ends in a path separator."""
    spelled = os.fspath(to)
    return spelled.endswith(("/", os.sep)) or (
        os.altsep is not None and spelled.endswith(os.altsep)
    )


def _deliver(data: bytes, to: str | os.PathLike[str], remote: str) -> Path:
    """The local file written: `to` itself, or the mount file's name inside `to` when it is a
    folder (an existing one, or one spelled with a trailing `/`, created)."""
    target = Path(to)
    if target.is_dir() or _is_folder_spelling(to):
        target = target / PurePosixPath(remote).name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return target


async def _adeliver(data: bytes, to: str | os.PathLike[str], remote: str) -> Path:
    """Async twin of `_deliver`: on a worker thread, off the event loop."""
    return await asyncio.to_thread(_deliver, data, to, remote)


def _read(source: bytes | Path) -> bytes:
    """The bytes of an upload: given, or read from the local file."""
    return source if isinstance(source, bytes) else source.read_bytes()


async def _aread(source: bytes | Path) -> bytes:
    """Async twin of `_read`: a file is read on a worker thread, off the event loop."""
    return source if isinstance(source, bytes) else await asyncio.to_thread(source.read_bytes)


def _put(rt: Runtime, url: str, data: bytes, content_type: str) -> None:
    put_bytes(url, data, content_type, http_client=rt.storage_client)


async def _aput(rt: Runtime, url: str, data: bytes, content_type: str) -> None:
    await aput_bytes(url, data, content_type, http_client=rt.astorage_client)


def _get(rt: Runtime, url: str, max_bytes: int) -> bytes:
    return get_bytes(url, max_bytes=max_bytes, http_client=rt.storage_client)


async def _aget(rt: Runtime, url: str, max_bytes: int) -> bytes:
    return await aget_bytes(url, max_bytes=max_bytes, http_client=rt.astorage_client)


class SessionFiles:
    """The files of one session mount (default mount id `files`).

    Sync methods use the sync client, `a*` methods the async one. The router's
    `storage_client` / `astorage_client` (if given) carry the presigned-URL transfers (e.g. to
    an in-process app); they must not carry the API key, which is checked on every transfer.
    """

    def __init__(self, rt: Runtime, session_id: str, *, mount_id: str = "files") -> None:
        self.session_id = session_id
        self.mount_id = mount_id
        self._rt = rt

    def list(self, prefix: str | None = None) -> MountItemList:
        """Every file of the mount (all pages), optionally under a path prefix."""
        _check_prefix(prefix)
        items = self._rt.client.iter_mount_items(
            self.session_id, mount_id=self.mount_id, prefix=prefix
        )
        return MountItemList(items)

    async def alist(self, prefix: str | None = None) -> MountItemList:
        """Async twin of `list`."""
        _check_prefix(prefix)
        items = self._rt.aclient.iter_mount_items(
            self.session_id, mount_id=self.mount_id, prefix=prefix
        )
        return MountItemList([item async for item in items])

    def upload(
        self,
        source: str | os.PathLike[str] | bytes | bytearray | memoryview,
        remote_path: str | None = None,
        *,
        mimetype: str | None = None,
    ) -> str:
        """Upload a local file or bytes; returns the file's mount-relative path.

        Args:
            source: A local path, or the bytes themselves.
            remote_path: Path in the mount (default: the local file's name; required for
                bytes). One ending in `/` is a folder: a local file keeps its name in it
                (`upload("report.csv", "reports/")` gives `reports/report.csv`).
            mimetype: Content type (default: guessed from the mount path's name).

        Raises:
            TypeError: an argument of the wrong type (named, with what it takes).
            ValueError: no `remote_path` for bytes, an empty one or one leaving the mount.
            FileNotFoundError: no such local file; IsADirectoryError: `source` is a folder.
        """
        return run_sync(self._upload(SyncFace(self._rt), source, remote_path, mimetype))

    async def aupload(
        self,
        source: str | os.PathLike[str] | bytes | bytearray | memoryview,
        remote_path: str | None = None,
        *,
        mimetype: str | None = None,
    ) -> str:
        """Async twin of `upload` (the local file is read on a worker thread)."""
        return await self._upload(AsyncFace(self._rt), source, remote_path, mimetype)

    async def _upload(
        self, face: Face, source: object, remote_path: object, mimetype: object
    ) -> str:
        given, path, content_type = _upload_source(source, remote_path, mimetype)
        data = await face.run(_read, _aread, given)
        target = await face.call(
            ToolRouterClient.create_upload_url,
            self.session_id,
            path,
            mimetype=content_type,
            mount_id=self.mount_id,
        )
        await face.run(_put, _aput, face.rt, target.upload_url, data, content_type)
        return target.mount_relative_path or path

    @overload
    def download(
        self, remote_path: str, to: None = None, *, max_bytes: int = DEFAULT_MAX_DOWNLOAD_BYTES
    ) -> bytes: ...

    @overload
    def download(
        self,
        remote_path: str,
        to: str | os.PathLike[str],
        *,
        max_bytes: int = DEFAULT_MAX_DOWNLOAD_BYTES,
    ) -> Path: ...

    def download(
        self,
        remote_path: str,
        to: str | os.PathLike[str] | None = None,
        *,
        max_bytes: int = DEFAULT_MAX_DOWNLOAD_BYTES,
    ) -> bytes | Path:
        """Download a file: its bytes, or the local `Path` written when `to` is given.

        A `to` that is a folder, or ends in `/` (a folder, created if missing), receives the
        file under its own name; any other `to` is the file to write. A file larger than
        `max_bytes` raises `FileTransferError`.

        Raises:
            TypeError: a `remote_path`, `to` or `max_bytes` of the wrong type.
            ValueError: an empty `remote_path`, one leaving the mount, or a negative
                `max_bytes`; nothing is requested.
        """
        return run_sync(self._download(SyncFace(self._rt), remote_path, to, max_bytes))

    @overload
    async def adownload(
        self, remote_path: str, to: None = None, *, max_bytes: int = DEFAULT_MAX_DOWNLOAD_BYTES
    ) -> bytes: ...

    @overload
    async def adownload(
        self,
        remote_path: str,
        to: str | os.PathLike[str],
        *,
        max_bytes: int = DEFAULT_MAX_DOWNLOAD_BYTES,
    ) -> Path: ...

    async def adownload(
        self,
        remote_path: str,
        to: str | os.PathLike[str] | None = None,
        *,
        max_bytes: int = DEFAULT_MAX_DOWNLOAD_BYTES,
    ) -> bytes | Path:
        """Async twin of `download` (the local file is written on a worker thread)."""
        return await self._download(AsyncFace(self._rt), remote_path, to, max_bytes)

    async def _download(
        self, face: Face, remote_path: str, to: str | os.PathLike[str] | None, max_bytes: int
    ) -> bytes | Path:
        _check_download(to, max_bytes)
        url = await face.call(
            ToolRouterClient.create_download_url,
            self.session_id,
            _remote_path(remote_path),
            mount_id=self.mount_id,
        )
        data = await face.run(_get, _aget, face.rt, url.download_url, max_bytes)
        if to is None:
            return data
        return await face.run(_deliver, _adeliver, data, to, remote_path)

    def delete(self, remote_path: str) -> None:
        """Delete a file (deleting a missing file also succeeds)."""
        self._rt.client.delete_mount_item(
            self.session_id, _remote_path(remote_path), mount_id=self.mount_id
        )

    async def adelete(self, remote_path: str) -> None:
        """Async twin of `delete`."""
        await self._rt.aclient.delete_mount_item(
            self.session_id, _remote_path(remote_path), mount_id=self.mount_id
        )

    def __repr__(self) -> str:
        return f"SessionFiles(session_id={self.session_id!r}, mount_id={self.mount_id!r})"
