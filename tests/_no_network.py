"""A runner for benchmark smoke tests: a script run as ``python script.py ...`` would run, under an
audit hook that refuses (and records) every attempt to resolve or reach a host not allowed.

Use: ``subprocess.run([sys.executable, "-c", runner(allowed), script, *argv])``; the run exits
97, listing the attempts on stderr, if anything tried.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})

_RUNNER = """
import runpy, sys

ALLOWED = {allowed!r}
attempts = []
ADDRESS_ARG = {{"socket.connect", "socket.sendto", "socket.sendmsg"}}
HOST_ARG = {{
    "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex",
    "socket.gethostbyaddr",
}}

def host_of(event, args):
    if event in ADDRESS_ARG:
        address = args[1]
        return address[0] if isinstance(address, tuple) else address
    host = args[0] if args else None
    return host.decode() if isinstance(host, bytes) else host

def no_network(event, args):
    if event in ADDRESS_ARG or event in HOST_ARG:
        host = host_of(event, args)
        if host not in ALLOWED:
            attempts.append(f"{{event}} {{args!r}}"[:200])
            raise OSError(f"network access in the benchmark smoke run: {{event}} {{host!r}}")

sys.addaudithook(no_network)
script, *argv = sys.argv[1:]
sys.argv = [script, *argv]
try:
    runpy.run_path(script, run_name="__main__")
except SystemExit as exc:
    code = exc.code
else:
    code = 0
if attempts:
    print("NETWORK ACCESS ATTEMPTED:", *attempts, sep="\\n  ", file=sys.stderr)
    code = 97
sys.exit(code)
"""


def runner(allowed: frozenset[str] = frozenset()) -> str:
    """The runner's source: no host at all by default, or only those in ``allowed``."""
    return _RUNNER.format(allowed=set(allowed))


def run_script(
    script: Path, *argv: str, cwd: Path, allowed: frozenset[str] = frozenset(), timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``python script *argv`` in ``cwd`` under the runner (output captured, never raising)."""
    return subprocess.run(
        [sys.executable, "-c", runner(allowed), str(script), *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def run_benchmark(
    script: Path, *args: str, cwd: Path, allowed: frozenset[str] = LOOPBACK, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    """Run a benchmark script under the runner (only `allowed` hosts) and check it exited 0
    (else fail with the end of its output)."""
    proc = run_script(script, *args, cwd=cwd, allowed=allowed, timeout=timeout)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-4000:]}\n{proc.stderr}"
    return proc
