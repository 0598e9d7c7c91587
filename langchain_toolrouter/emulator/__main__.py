"""`python -m langchain_toolrouter.emulator` / `toolrouter-emulator`: serve the emulator."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolrouter-emulator",
        description="Run a local Composio Tool Router emulator (same wire format, offline).",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)"
    )
    parser.add_argument(
        "--port", type=int, default=8765, help="port to listen on (default 8765; 0 = any free port)"
    )
    parser.add_argument(
        "--api-key", default=None, help="API key clients must send (default ak_emulator_local)"
    )
    parser.add_argument(
        "--data-dir", default=None, help="directory for mount files (default: a temporary one)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for ids (default 0)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse arguments, print how to connect, and serve until interrupted."""
    args = _parser().parse_args(argv)
    try:
        import uvicorn

        from langchain_toolrouter.emulator import DEFAULT_API_KEY, create_app
        from langchain_toolrouter.emulator.server import free_port
    except ImportError as exc:
        print(exc, file=sys.stderr)
        return 2
    api_key = args.api_key or DEFAULT_API_KEY
    app = create_app(api_keys=[api_key], data_dir=args.data_dir, seed=args.seed)
    port = args.port or free_port(args.host)
    base_url = f"http://{args.host}:{port}"
    print(f"Tool Router emulator on {base_url}")
    print(f"  export COMPOSIO_BASE_URL={base_url}")
    print(f"  export COMPOSIO_API_KEY={api_key}")
    print(f"  mount files in {app.state.emulator.mounts.root}")
    print("Press Ctrl+C to stop.", flush=True)
    uvicorn.run(app, host=args.host, port=port, log_level="warning", http="h11", lifespan="off")
    return 0


if __name__ == "__main__":
    sys.exit(main())
