"""`python -m langchain_contextchef.cli ...` runs the `contextchef` command line."""

from __future__ import annotations

import sys

from langchain_contextchef.cli import main

if __name__ == "__main__":
    sys.exit(main())
