"""The demo: a small agent does a realistic task through a Tool Router session.

Run it with ``python -m langchain_toolrouter demo`` (or ``langchain-toolrouter-demo``). It is a
program, not part of the library's API: `cli` parses the command line, `run` is the demo itself.
Nothing here is imported by ``import langchain_toolrouter``.
"""
