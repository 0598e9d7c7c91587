"""`python -m langchain_toolrouter.emulator` / `toolrouter-emulator`: serve the emulator.

Exit codes: 0 after Ctrl-C, 1 when the ``emulator`` extra is not installed (one line naming
what to install), 2 for bad arguments (argparse's usage line and a one-line
`error: ...` naming the option and the fix, before anything is printed to stdout; a port that
cannot be listened on counts too, as its fix is another `--port` or `--host`).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from langchain_toolrouter.emulator.app import DEFAULT_LOG_SIZE
from langchain_toolrouter.emulator.limits import DEFAULT_MAX_BODY_BYTES


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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse arguments, listen, print how to connect, and serve until interrupted."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        import uvicorn

        from langchain_toolrouter.emulator import DEFAULT_API_KEY, create_app
        from langchain_toolrouter.emulator.server import _bind
    except ImportError as exc:  # the extra is missing: one line with the fix, no traceback
        missing = f" ({exc.name} is missing)" if exc.name else ""
        print(
            f"error: the Tool Router emulator needs the 'emulator' extra{missing}: "
            'pip install "langchain-toolrouter[emulator]"',
            file=sys.stderr,
        )
        return 1
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
        config = uvicorn.Config(
            app, host=args.host, port=port, log_level="warning", http="h11", lifespan="on"
        )
        with contextlib.suppress(KeyboardInterrupt):
            uvicorn.Server(config).run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main())
