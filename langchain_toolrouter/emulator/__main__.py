"""`python -m langchain_toolrouter.emulator` / `toolrouter-emulator`: serve the emulator.

It prints one access line per request (method, path, status, milliseconds; never a key, a query
string or a body) unless ``--quiet``. Ctrl-C and SIGTERM (what ``kill``, docker and systemd send)
stop it the same way: requests in progress finish, the temporary mount folder is removed.

Exit codes: 0 after Ctrl-C or SIGTERM, 1 when the ``emulator`` extra is not installed (one line
naming what to install), 2 for bad arguments (argparse's usage line and a one-line
`error: ...` naming the option and the fix, before anything is printed to stdout; a port that
cannot be listened on counts too, as its fix is another `--port` or `--host`).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import math
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType

from langchain_toolrouter.emulator import require_extra
from langchain_toolrouter.emulator.defaults import (
    DEFAULT_BODY_TIMEOUT,
    DEFAULT_HEADER_TIMEOUT,
    DEFAULT_KEEP_ALIVE_TIMEOUT,
    DEFAULT_LOG_SIZE,
    DEFAULT_MAX_BODY_BYTES,
)


def _port(text: str) -> int:
    """A TCP port 0-65535 (0 = any free port), for argparse."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a TCP port; give 1-65535, or 0 for any free port"
        )
    return port


def _positive(what: str) -> Callable[[str], int]:
    def check(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a valid {what}; give a whole number >= 1"
            )
        return value

    return check


def _seconds(option: str) -> Callable[[str], float]:
    def check(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value > 0):
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a number of seconds; give one > 0, e.g. {option} 10"
            )
        return value

    return check


def _non_empty(what: str) -> Callable[[str], str]:
    def check(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{what} must not be empty; {_OMIT}")
        return text

    return check


_OMIT = "give a value, or leave the option out for its default"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolrouter-emulator",
        description="Run a local Composio Tool Router emulator (same wire format, offline).",
    )
    parser.add_argument(
        "--host",
        type=_non_empty("the host"),
        default="127.0.0.1",
        help="interface to listen on (default 127.0.0.1)",
    )
    parser.add_argument(
        "--port",
        type=_port,
        default=8765,
        help="port to listen on (default 8765; 0 = any free port)",
    )
    parser.add_argument(
        "--api-key",
        type=_non_empty("the API key"),
        default=None,
        help="API key clients must send (default ak_emulator_local)",
    )
    parser.add_argument(
        "--data-dir",
        type=_non_empty("the data directory"),
        default=None,
        help="directory for mount files (default: a temporary one)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for ids (default 0)")
    parser.add_argument(
        "--max-body-bytes",
        type=_positive("byte count"),
        default=DEFAULT_MAX_BODY_BYTES,
        help=f"largest request body accepted, in bytes (default {DEFAULT_MAX_BODY_BYTES})",
    )
    parser.add_argument(
        "--log-size",
        type=_positive("log size"),
        default=DEFAULT_LOG_SIZE,
        help=f"requests the request log keeps (default {DEFAULT_LOG_SIZE})",
    )
    parser.add_argument(
        "--header-timeout",
        type=_seconds("--header-timeout"),
        default=DEFAULT_HEADER_TIMEOUT,
        help="seconds a connection may take to send a request's head before it is closed "
        f"(default {DEFAULT_HEADER_TIMEOUT:g})",
    )
    parser.add_argument(
        "--body-timeout",
        type=_seconds("--body-timeout"),
        default=DEFAULT_BODY_TIMEOUT,
        help="seconds a request body may take to arrive before its connection is closed "
        f"(default {DEFAULT_BODY_TIMEOUT:g})",
    )
    parser.add_argument(
        "--keep-alive-timeout",
        type=_seconds("--keep-alive-timeout"),
        default=DEFAULT_KEEP_ALIVE_TIMEOUT,
        help="seconds an idle connection is kept open between requests "
        f"(default {DEFAULT_KEEP_ALIVE_TIMEOUT:g})",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="print no access line per request",
    )
    return parser


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM stops the server as Ctrl-C does.

    uvicorn catches both signals to shut down gracefully, then raises the one it got again once
    done; left to its default action, a SIGTERM then killed the process (exit 143) before the
    temporary mount folder was removed.
    """

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _print_access_lines() -> None:
    """Show the app's access lines on stdout, one per request, with the time of day."""
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", datefmt="%H:%M:%S"))
    logger = logging.getLogger("langchain_toolrouter.emulator.access")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


def main(argv: Sequence[str] | None = None) -> int:
    """Parse arguments, listen, print how to connect, and serve until interrupted."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        require_extra()
    except ImportError as exc:  # the extra is missing: one line with the fix, no traceback
        print(f"error: {str(exc)[:1].lower()}{str(exc)[1:]}", file=sys.stderr)
        return 1
    import uvicorn

    from langchain_toolrouter.emulator.app import DEFAULT_API_KEY, create_app
    from langchain_toolrouter.emulator.connections import server_config
    from langchain_toolrouter.emulator.server import _bind

    api_key = args.api_key or DEFAULT_API_KEY
    data_dir = args.data_dir and Path(args.data_dir)
    if data_dir and data_dir.exists() and not data_dir.is_dir():
        parser.error(
            f"--data-dir {args.data_dir} is not a directory; give a directory (it is created if "
            "missing), or leave --data-dir out for a temporary one"
        )
    try:
        app = create_app(
            api_keys=[api_key],
            data_dir=data_dir,
            seed=args.seed,
            max_body_bytes=args.max_body_bytes,
            log_size=args.log_size,
            access_log=not args.quiet,
        )
    except OSError as exc:  # e.g. the directory cannot be created
        parser.error(f"--data-dir {args.data_dir}: {exc}; give a directory you can write to")
    # Listen before printing: the address printed is one that is being served.
    try:
        sock = _bind(args.host, args.port)
    except OSError as exc:
        parser.error(
            f"cannot listen on {args.host}:{args.port} ({exc}); choose another --port "
            "(0 = any free port) or --host"
        )
    with sock:
        port = int(sock.getsockname()[1])
        base_url = f"http://{args.host}:{port}"
        print(f"Tool Router emulator on {base_url}")
        print(f"  export COMPOSIO_BASE_URL={base_url}")
        print(f"  export COMPOSIO_API_KEY={api_key}")
        print(f"  mount files in {app.state.emulator.mounts.root}")
        print("Press Ctrl+C to stop.", flush=True)
        if not args.quiet:
            _print_access_lines()
        config = server_config(
            app,
            host=args.host,
            port=port,
            header_timeout=args.header_timeout,
            body_timeout=args.body_timeout,
            keep_alive_timeout=args.keep_alive_timeout,
        )
        with _sigterm_as_interrupt():
            uvicorn.Server(config).run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main())
