"""``python -m langchain_toolrouter demo``: the demo command (see `langchain_toolrouter.demo`)."""

import sys

from langchain_toolrouter.demo.cli import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m langchain_toolrouter"))
