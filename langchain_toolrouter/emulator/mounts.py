"""Session file mounts on disk, and the signed, expiring URLs that read and write them.

Files live under `<root>/<session_id>/<mount_id>/<mount_relative_path>`. A path is checked before
any disk access: absolute paths, `..` segments, backslashes and NUL bytes are refused, so nothing
outside the mount can be named. Presigned URLs carry `expires` (unix seconds) and `signature`
(HMAC-SHA256 over method, session, mount, path and expiry with a per-app secret), like an S3
presigned URL: whoever holds one may PUT or GET that single file until it expires, without the
API key.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import BinaryIO
from urllib.parse import quote, unquote

from langchain_toolrouter.emulator.errors import EmulatorError, bad_request

__all__ = ["SANDBOX_PREFIX", "IncomingFile", "MountFile", "MountStore", "PresignedUrl"]

#: Where the mount appears inside the (remote) sandbox; echoed as `sandbox_mount_prefix`.
SANDBOX_PREFIX = "/mnt"
#: Longest file or folder name of a mount path, in UTF-8 bytes (the usual file-system limit).
MAX_NAME_BYTES = 255
#: Longest mount path, in UTF-8 bytes (an S3 object key's limit; its presigned URL stays short).
MAX_PATH_BYTES = 1024
#: Longest path the host file system takes (Linux's PATH_MAX, with its terminating NUL).
_HOST_PATH_MAX = 4095
#: Digits of an `expires` a presigned URL can carry (seconds since 1970, up to the year 5138).
_EXPIRES_DIGITS = 11
#: Mount ids accepted by the emulator (the service's SDK only uses "files").
MOUNT_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


@dataclass(frozen=True)
class MountFile:
    """One file of a mount listing."""

    mount_relative_path: str
    size: int
    last_modified: str


@dataclass(frozen=True)
class PresignedUrl:
    """A signed URL path (relative to the emulator's base URL) and its expiry."""

    path_and_query: str
    expires_at: str


@dataclass
class IncomingFile:
    """A file being uploaded: written to a temporary file beside the mounts, which replaces the
    mount file only on `commit()` (a refused or broken upload leaves the old file as it was)."""

    file: BinaryIO
    staged: Path
    target: Path
    relative: str
    committed: bool = False

    def write(self, chunk: bytes) -> None:
        """Append a chunk of the upload."""
        with _disk_errors(self.relative):
            self.file.write(chunk)

    def commit(self) -> None:
        """Make the upload the mount file (parent folders are created).

        Raises:
            EmulatorError: 400 when the path cannot be a file (a parent is a file, the path
                is a folder).
        """
        with _disk_errors(self.relative):
            self.file.close()
            self.target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(self.staged, self.target)
        self.committed = True


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, tz=timezone.utc).isoformat().replace("+00:00", "Z")


def _forbidden(message: str) -> EmulatorError:
    return EmulatorError(
        403,
        "Emulator_PresignedUrlRejected",
        4303,
        message,
        suggested_fix="Ask for a fresh URL with upload_url/download_url and use it unchanged "
        "before it expires.",
    )


#: File-system errors that mean "this path cannot be a file here": the caller's 400.
_PATH_PROBLEMS = {
    errno.EEXIST: "a folder in the path is already a file",
    errno.ENOTDIR: "a folder in the path is already a file",
    errno.EISDIR: "the path is a folder",
    errno.ENAMETOOLONG: "the path or one of its names is too long",
}


@contextmanager
def _disk_errors(relative: str) -> Iterator[None]:
    """Turn an `OSError` on one mount path into the service's error, without the host path."""
    try:
        yield
    except OSError as exc:
        problem = _PATH_PROBLEMS.get(exc.errno or 0)
        if problem is None:
            raise EmulatorError(
                500,
                "ToolRouterV2_InternalServerError",
                4340,
                f"The mount storage failed on {relative!r}: {exc.strerror or type(exc).__name__}.",
                suggested_fix="Retry later; if it persists, check the emulator's data directory.",
            ) from exc
        raise bad_request(
            f"mount_relative_path {relative!r} cannot be used: {problem}.",
            suggested_fix="Choose a path that does not run through an existing file, name a "
            "file rather than a folder, and keep each name under 256 bytes.",
            errors=[f"mount_relative_path: {problem}"],
        ) from exc


class MountStore:
    """Files of every session mount under one root directory, plus URL signing."""

    def __init__(
        self,
        root: Path,
        *,
        secret: bytes,
        url_ttl: float = 900.0,
        max_upload_bytes: int = 100 * 1024 * 1024,
    ) -> None:
        self.root = root
        self._secret = secret
        self.url_ttl = url_ttl
        self.max_upload_bytes = max_upload_bytes

    # -- paths ---------------------------------------------------------------------------------

    @staticmethod
    def normalize(path: str) -> str:
        """Check a mount-relative path and return its normalized `a/b/c` form.

        Raises:
            EmulatorError: 400 for empty or absolute paths, `.`/`..` segments (also
                percent-encoded, `%2e%2e`, in case something decodes them later), a drive
                letter, backslashes, control characters (a newline, a NUL byte), a name over
                `MAX_NAME_BYTES` or a path over `MAX_PATH_BYTES`.
        """
        if "\\" in path or any(ord(char) < 0x20 or ord(char) == 0x7F for char in path):
            raise bad_request(
                f"mount_relative_path {path!r} contains a control character (a newline, a tab, "
                "a NUL byte, ...) or a backslash.",
                suggested_fix="Use '/'-separated relative paths of printable characters, such as "
                "'data/output.csv'.",
                errors=["mount_relative_path: invalid character"],
            )
        parts = PurePosixPath(path).parts
        dots = any(unquote(segment) in ("..", ".") for segment in path.split("/"))
        if not parts or path.startswith("/") or dots or ":" in parts[0]:
            raise bad_request(
                f"mount_relative_path {path!r} is absolute, escapes the mount or names no file.",
                suggested_fix="Give a relative path inside the mount without a leading '/' or "
                "'..' segments, e.g. 'reports/2026.csv'.",
                errors=["mount_relative_path: must be a relative path inside the mount"],
            )
        long = [p for p in parts if len(p.encode()) > MAX_NAME_BYTES]
        if long:
            raise bad_request(
                f"mount_relative_path has a name of {len(long[0].encode())} bytes; at most "
                f"{MAX_NAME_BYTES} bytes are allowed per name.",
                suggested_fix="Shorten the file or folder names of the path.",
                errors=[f"mount_relative_path: names must be at most {MAX_NAME_BYTES} bytes"],
            )
        normalized = "/".join(parts)
        if len(normalized.encode()) > MAX_PATH_BYTES:
            raise bad_request(
                f"mount_relative_path is {len(normalized.encode())} bytes long; at most "
                f"{MAX_PATH_BYTES} bytes are allowed.",
                suggested_fix="Use a shorter path (fewer or shorter folder names).",
                errors=[f"mount_relative_path: at most {MAX_PATH_BYTES} bytes"],
            )
        return normalized

    @staticmethod
    def check_mount_id(mount_id: str) -> None:
        """Refuse mount ids that could name a directory outside the session's tree."""
        if not mount_id or not set(mount_id) <= MOUNT_ID_CHARS:
            raise bad_request(
                f"mount_id {mount_id!r} is not a valid mount id.",
                suggested_fix="Use the session's mount id, normally 'files'.",
                errors=["mount_id: letters, digits, '_' and '-' only"],
            )

    def _mount_dir(self, session_id: str, mount_id: str) -> Path:
        self.check_mount_id(mount_id)
        return self.root / session_id / mount_id

    def file_path(self, session_id: str, mount_id: str, relative: str) -> Path:
        """Disk path of a (normalized) mount-relative path, proven to stay inside the mount."""
        base = self._mount_dir(session_id, mount_id).resolve()
        target = (base / relative).resolve()
        if base != target and base not in target.parents:
            raise bad_request(
                f"mount_relative_path {relative!r} resolves outside the mount.",
                suggested_fix="Use a plain relative path inside the mount.",
                errors=["mount_relative_path: must stay inside the mount"],
            )
        if len(os.fsencode(target)) > _HOST_PATH_MAX:
            problem = "the path is too long for the emulator's data directory"
            raise bad_request(
                f"mount_relative_path {relative!r} cannot be stored: {problem}.",
                suggested_fix="Use a shorter path, or start the emulator with a shorter data_dir.",
                errors=[f"mount_relative_path: {problem}"],
            )
        return target

    def check_storable(self, session_id: str, mount_id: str, relative: str) -> None:
        """Refuse, before an upload URL is made, a path a file could not be written at.

        Raises:
            EmulatorError: 400 when a folder of the path is already a file, the path is a
                folder, or the path or a name is too long for the host (naming which).
        """
        with _disk_errors(relative):
            target = self.file_path(session_id, mount_id, relative)
            existing = target.parent
            while not existing.exists():
                existing = existing.parent
            if not existing.is_dir():
                raise OSError(errno.ENOTDIR, "Not a directory")
            if target.is_dir():
                raise OSError(errno.EISDIR, "Is a directory")
            try:
                name_max = os.pathconf(existing, "PC_NAME_MAX")
            except (OSError, ValueError):  # not reported: the usual limit
                name_max = MAX_NAME_BYTES
            missing = target.relative_to(existing).parts
            if any(len(os.fsencode(name)) > name_max for name in missing):
                raise OSError(errno.ENAMETOOLONG, "File name too long")

    @staticmethod
    def sandbox_prefix(mount_id: str) -> str:
        """The sandbox path the mount is visible under, e.g. `/mnt/files`."""
        return f"{SANDBOX_PREFIX}/{mount_id}"

    # -- files ---------------------------------------------------------------------------------

    @contextmanager
    def incoming(self, session_id: str, mount_id: str, relative: str) -> Iterator[IncomingFile]:
        """An upload of one file, streamed to disk: write its chunks, then `commit()`; left
        without a commit (the upload was refused, or its client left), nothing changes.

        Raises:
            EmulatorError: 400 when the path cannot be a file (a parent is a file, the path is
                a folder, a name is too long), here or on `commit()`; the host path is never
                named.
        """
        with _disk_errors(relative):
            target = self.file_path(session_id, mount_id, relative)
            # Beside the sessions' folders, under a name no session id has: never listed.
            staging = self.root / ".incoming"
            staging.mkdir(exist_ok=True)
            fd, name = tempfile.mkstemp(dir=staging)
        upload = IncomingFile(os.fdopen(fd, "wb"), Path(name), target, relative)
        try:
            yield upload
        finally:
            if not upload.committed:
                upload.file.close()
                upload.staged.unlink(missing_ok=True)

    def read(self, session_id: str, mount_id: str, relative: str) -> bytes | None:
        """The bytes of one file, or None when it does not exist (errors as for `incoming`)."""
        with _disk_errors(relative):
            target = self.file_path(session_id, mount_id, relative)
            return target.read_bytes() if target.is_file() else None

    def delete(self, session_id: str, mount_id: str, relative: str) -> bool:
        """Remove one file; returns whether it existed (deleting a missing file is fine)."""
        with _disk_errors(relative):
            target = self.file_path(session_id, mount_id, relative)
            if target.is_file():
                target.unlink()
                return True
            return False

    def _walk(self, session_id: str, mount_id: str) -> Iterator[MountFile]:
        base = self._mount_dir(session_id, mount_id)
        if not base.is_dir():
            return
        for dirpath, _dirs, files in os.walk(base):
            for name in files:
                full = Path(dirpath) / name
                stat = full.stat()
                yield MountFile(
                    mount_relative_path=full.relative_to(base).as_posix(),
                    size=stat.st_size,
                    last_modified=_iso(stat.st_mtime),
                )

    def list(self, session_id: str, mount_id: str, prefix: str = "") -> list[MountFile]:
        """Every file of the mount whose relative path starts with `prefix`, sorted by path."""
        clean = prefix.lstrip("/")
        files = [
            f for f in self._walk(session_id, mount_id) if f.mount_relative_path.startswith(clean)
        ]
        return sorted(files, key=lambda f: f.mount_relative_path)

    def drop_session(self, session_id: str) -> None:
        """Delete every file of a session (used when the session is deleted)."""
        base = self.root / session_id
        if not base.is_dir():
            return
        for dirpath, dirs, files in os.walk(base, topdown=False):
            for name in files:
                (Path(dirpath) / name).unlink()
            for name in dirs:
                (Path(dirpath) / name).rmdir()
        base.rmdir()

    # -- signing -------------------------------------------------------------------------------

    def _signature(
        self, method: str, session_id: str, mount_id: str, path: str, expires: int
    ) -> str:
        message = "\n".join((method.upper(), session_id, mount_id, path, str(expires)))
        return hmac.new(self._secret, message.encode(), hashlib.sha256).hexdigest()

    def presign(
        self,
        method: str,
        session_id: str,
        mount_id: str,
        relative: str,
        *,
        now: float | None = None,
    ) -> PresignedUrl:
        """A URL path+query allowing `method` (PUT or GET) on one file until the expiry."""
        expires = int((time.time() if now is None else now) + self.url_ttl)
        signature = self._signature(method, session_id, mount_id, relative, expires)
        path = "/_emulator/files/{}/{}/{}".format(
            quote(session_id, safe=""), quote(mount_id, safe=""), quote(relative, safe="/")
        )
        return PresignedUrl(
            path_and_query=f"{path}?expires={expires}&signature={signature}",
            expires_at=_iso(expires),
        )

    def verify(
        self,
        method: str,
        session_id: str,
        mount_id: str,
        relative: str,
        *,
        expires: str | None,
        signature: str | None,
        now: float | None = None,
    ) -> None:
        """Accept a presigned request or raise 403 saying whether it is tampered or expired."""
        if (
            not expires
            or not signature
            or not (expires.isascii() and expires.isdigit())
            or len(expires) > _EXPIRES_DIGITS
        ):
            raise _forbidden("The presigned URL lacks a valid 'expires' or 'signature' parameter.")
        expected = self._signature(method, session_id, mount_id, relative, int(expires))
        # As bytes: a signature with non-ASCII text in it is a mismatch, not a TypeError.
        if not hmac.compare_digest(expected.encode(), signature.encode("utf-8", "replace")):
            raise _forbidden(
                f"The presigned URL signature does not match this {method.upper()} request "
                "(the URL was altered, or used with another method)."
            )
        if int(expires) < (time.time() if now is None else now):
            raise _forbidden(f"The presigned URL expired at {_iso(int(expires))}.")
