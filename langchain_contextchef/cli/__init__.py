"""`contextchef`: inspect and edit the memory in a store from the command line, or run the demo.

The package (this face holds `main`, the `contextchef` entry point)::

    _parser, _options   the command line's shape; what `--store`, `--scope`, `--ttl` mean
    _stores, _access    which store `--store` names; the scope and input files a command reaches
    _read_commands      `scopes`, `list`, `show`, `history`, `turns`
    _write_commands     `set`, `delete`, `export`, `import`
    _privacy_commands   `purge`, the proposals, `audit`, `rotate-key`
    _preview            `preview` and `demo`
    _text               how commands print: times, TTLs, clipped values, aligned tables
    __main__            `python -m langchain_contextchef.cli`

Commands (each takes `--store PATH`, default `./.context`, or `--store postgresql://...` or
`sqlite:///file.db`, and `--scope a/b`; with `CONTEXTCHEF_ENCRYPTION_KEYS` set, the store is
read and written through `EncryptedStore`):

* `scopes`: the scopes the store holds, with their entry counts and turn clocks;
* `list`: keys, descriptions, last update and TTL of every entry;
* `show KEY`: one entry as JSON;
* `set KEY VALUE [--description D] [--ttl N|Nms|never]`: write an entry (developer path);
* `delete KEY`: remove an entry;
* `history KEY`: every kept version of a key: when and by whom each was written and replaced;
* `turns`: the persisted turn clock and the entries that expire by turn;
* `export [-o FILE]` / `import FILE [--replace]`: a JSON snapshot of the scope, out or back in;
* `purge --default D --max-age TYPE=D [--erase]`: retention for every scope under `--scope`;
* `proposals`, `approve-proposal ID [--value V]`, `reject-proposal ID`: writes held for consent;
* `audit [--key K] [-o FILE]`: the scope's audit trail as JSON lines (none, with a note on
  stderr, while the application has auditing off);
* `rotate-key`: re-encrypt an encrypted store with the first key of the environment's keys;
* `preview "TEXT"|MESSAGES.json|-`: the prompt a user message (or a message list) would get,
  without touching the store;
* `demo`: the two-process memory demo (see `langchain_contextchef.demo`).

User mistakes exit with code 2 and a message on stderr, never a traceback; so does a read in a
scope the store does not hold, naming the scopes it does. When the reader of the output goes
away before it is all written (`contextchef export | head -1`), the command stops quietly with
exit code 141, as a program ended by SIGPIPE does.

Example:
    ```python
    import tempfile
    from langchain_contextchef.cli import main

    with tempfile.TemporaryDirectory() as folder:
        assert main(["set", "lang", "Python", "--store", folder]) == 0
        assert main(["show", "lang", "--store", folder]) == 0
        assert main(["show", "nope", "--store", folder]) == 2
    ```
"""

# `main` reports errors by printing them to standard error.

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from langchain_contextchef.cli._options import (
    DEFAULT_STORE,
    PROG,
    CliError,
    parse_scope,
    parse_ttl_option,
)
from langchain_contextchef.cli._parser import build_parser
from langchain_contextchef.errors import ContextChefError

# The modules below, lowest first: `_options` (what an option means, `CliError`), `_access`
# (opening the store and scope, reading input files), `_text` (tables and times), the handlers
# (`_read_commands`, `_write_commands`, `_preview`), and `_parser`, which wires each handler to
# its sub-command. Only `main` lives here: it alone decides exit codes and what an error shows.

__all__ = [
    "CliError",
    "DEFAULT_STORE",
    "build_parser",
    "main",
    "parse_scope",
    "parse_ttl_option",
]

_EXIT_BROKEN_PIPE = 128 + 13  # what a shell reports for a program ended by SIGPIPE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `contextchef` command line.

    Args:
        argv: The arguments after the program name; `sys.argv[1:]` by default.

    Returns:
        The exit code: 0 on success, 2 for a usage or input mistake, 141 when the reader of
        standard output went away (`contextchef list | head -1`), 1 for anything else.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if getattr(args, "handler", None) is None:
            parser.print_help()
            return 2
        args.store = args.store or DEFAULT_STORE
        args.scope_labels = parse_scope(args.scope)
        code: int = args.handler(args)
        # Flushed here, inside the try: a reader that went away is noticed now, not in the
        # interpreter's final flush, which would print "Exception ignored ... BrokenPipeError".
        sys.stdout.flush()
        return code
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else 0
    except BrokenPipeError:
        _discard_stdout()
        return _EXIT_BROKEN_PIPE
    except (ContextChefError, ValueError, TypeError, OSError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the last line of defence: no traceback for users
        print(f"{PROG}: unexpected {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


def _discard_stdout() -> None:
    # The reader is gone and whatever is still buffered can never reach it: point the stdout
    # descriptor at the null device so the interpreter's last flush succeeds quietly. (This
    # is what Python's documentation recommends for SIGPIPE; restoring SIGPIPE's default
    # action instead would kill a process that calls `main` in-process.)
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # captured or replaced stdout: no descriptor
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, descriptor)
    finally:
        os.close(null)
