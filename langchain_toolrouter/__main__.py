"""``python -m langchain_toolrouter demo``: run the demo agent (see `langchain_toolrouter._demo_run`).

Also installed as the ``langchain-toolrouter-demo`` console script. Exit codes: 0 when the agent
finished its task, 1 when it did not or the demo could not run (a one-line ``error: ...`` says why
and how to fix it; ``--debug`` adds the traceback), 2 for bad command-line arguments, 130 after
Ctrl-C.
"""

from __future__ import annotations

import argparse
import io
import sys
import traceback
from collections.abc import Sequence

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m langchain_toolrouter",
        description=(
            "Run an agent through a Tool Router session: tool search, connecting an account, "
            "app tools, a custom tool and recovery from a failed call. Without COMPOSIO_API_KEY "
            "it runs on the embedded emulator."
        ),
    )
    parser.add_argument(
        "command",
        nargs="?",
        default="demo",
        choices=["demo"],
        help="what to run (default: demo)",
    )
    parser.add_argument(
        "--model",
        metavar="PROVIDER:NAME",
        help="use a real chat model via langchain's init_chat_model, e.g. openai:gpt-4o-mini "
        "(needs `langchain`, the provider's package and its API key); default: the scripted model",
    )
    parser.add_argument(
        "--user-id", default="demo-user", help="the session's user (default: demo-user)"
    )
    parser.add_argument(
        "--max-steps", type=int, default=20, help="model turns before giving up (default: 20)"
    )
    parser.add_argument(
        "--emulator-latency",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="slow every emulator request down, to watch progress output or try Ctrl-C",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        help="on an error, print its full traceback before the one-line message",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, run the demo, and return the process exit code."""
    args = _parser().parse_args(argv)
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):  # a console that cannot show "→" gets "?"
            stream.reconfigure(errors="replace")
    from langchain_toolrouter._demo_run import DemoError, run_demo

    try:
        report = run_demo(
            model=args.model,
            user_id=args.user_id,
            max_steps=args.max_steps,
            emulator_latency=args.emulator_latency,
        )
    except DemoError as exc:
        if args.debug:
            traceback.print_exception(exc, file=sys.stderr)
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(
            "\nInterrupted: stopped cleanly (the emulator, if started, is shut down).",
            file=sys.stderr,
        )
        return 130
    return 0 if report.finished else 1


if __name__ == "__main__":
    sys.exit(main())
