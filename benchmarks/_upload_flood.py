"""Chunked uploads of SIZE bytes to each URL at once, one thread each; one line per outcome
(the status, or the error of a connection the server closed mid-upload).

    python benchmarks/_upload_flood.py SIZE URL [URL ...]

Run as a process of its own by bench_emulator_limits.py and tests/reliability, so that its
sending is not the measured process's work.
"""

from __future__ import annotations

import http.client
import sys
import threading
from urllib.parse import urlsplit

CHUNK = b"x" * 65536


def upload(url: str, size: int) -> None:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=120)
    body = (CHUNK for _ in range(size // len(CHUNK)))
    try:
        connection.request("PUT", f"{parts.path}?{parts.query}", body=body, encode_chunked=True)
        print(connection.getresponse().status, flush=True)
    except OSError as exc:  # answered, and the connection closed mid-upload
        print(type(exc).__name__, flush=True)
    finally:
        connection.close()


def main() -> None:
    size = int(sys.argv[1])
    threads = [threading.Thread(target=upload, args=(url, size)) for url in sys.argv[2:]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


if __name__ == "__main__":
    main()
