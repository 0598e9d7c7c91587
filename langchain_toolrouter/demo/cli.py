"""The demo's command line: ``langchain-toolrouter-demo`` and ``python -m langchain_toolrouter demo``.

`main` parses the arguments and runs `langchain_toolrouter.demo.run.run_demo`. Exit codes: 0 when
the agent finished its task, 1 when it did not or the demo could not run (a one-line
``error: ...`` says why and how to fix it; ``--debug`` adds the traceback), 2 for bad
command-line arguments (argparse's usage line and a one-line ``error: ...`` naming the option
and the fix, before the demo starts), 130 after Ctrl-C.
"""

from __future__ import annotations

import argparse
import io
import math
import os
import sys
import traceback
from collections.abc import Sequence

__all__ = ["PROG", "main"]


def _model(text: str) -> str:
    """`provider:name`, both parts non-empty (argparse type)."""
    provider, _, name = text.partition(":")
    if not provider.strip() or not name.strip():
        raise argparse.ArgumentTypeError(
            f"must look like provider:name, e.g. openai:gpt-4o-mini; got {text!r} (leave --model "
            "out for the scripted model)"
        )
    return text


def _user_id(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError(
            f"must name a user, got {text!r}; e.g. --user-id alice (default: demo-user)"
        )
    return text


def _max_steps(text: str) -> int:
    try:
        steps = int(text)
    except ValueError:
        steps = 0
    if steps < 1:
        raise argparse.ArgumentTypeError(
            f"must be a whole number of model turns >= 1, got {text!r}; e.g. --max-steps 20"
        )
    return steps


def _latency(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds < 0:
        raise argparse.ArgumentTypeError(
            f"must be a number of seconds >= 0, got {text!r}; e.g. --emulator-latency 0.5"
        )
    return seconds


PROG = "langchain-toolrouter-demo"
"""The console script's name; ``python -m`` passes its own, so usage and errors name the
command the user typed."""


def _parser(prog: str = PROG) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
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
        type=_model,
        metavar="PROVIDER:NAME",
        help="use a real chat model via langchain's init_chat_model, e.g. openai:gpt-4o-mini "
        "(needs `langchain`, the provider's package and its API key); default: the scripted model",
    )
    parser.add_argument(
        "--user-id",
        type=_user_id,
        default="demo-user",
        help="the session's user (default: demo-user)",
    )
    parser.add_argument(
        "--max-steps",
        type=_max_steps,
        default=20,
        help="model turns before giving up (default: 20)",
    )
    parser.add_argument(
        "--emulator-latency",
        type=_latency,
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


def main(argv: Sequence[str] | None = None, *, prog: str = PROG) -> int:
    """Parse the command line, run the demo, and return the process exit code.

    `prog` is the command as the user typed it, for the usage line and error messages.
    """
    parser = _parser(prog)
    args = parser.parse_args(argv)
    if args.emulator_latency and os.environ.get("COMPOSIO_API_KEY"):
        parser.error(
            "--emulator-latency slows the embedded emulator, which is not used while "
            "COMPOSIO_API_KEY is set; drop --emulator-latency or unset COMPOSIO_API_KEY"
        )
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):  # a console that cannot show "→" gets "?"
            stream.reconfigure(errors="replace")
    from langchain_toolrouter.demo.run import DemoError, run_demo

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
