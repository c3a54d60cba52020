"""How namespaces and keys become file-system names.

Every namespace label becomes one folder name and every key one file name (plus `.json`).
Names that are already safe everywhere (short, lower-case ASCII letters, digits, `-`, `_`)
are used as they are. Any other name keeps a readable, sanitised prefix and gains `~` and a
hash of the exact original text. This makes the mapping:

* safe: a component never contains a separator, never starts with `.`, is never empty, so
  every path stays under the store root;
* collision-free on case-insensitive and normalising file systems (macOS, Windows): two
  names that differ in any way (case, Unicode normal form) differ in their lower-case hex
  hash, and plain names (no `~`) never collide with hashed ones;
* bounded: hashed names stay far below the common 255-byte limit, whatever the input length.

The stored JSON holds the real namespace and key, so nothing ever decodes a file name.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import secrets

__all__ = [
    "ITEM_SUFFIX",
    "JOURNAL_DIR",
    "JOURNAL_SUFFIX",
    "LOCK_DIR",
    "STAGING_DIR",
    "dir_lock_name",
    "encode_component",
    "encode_namespace",
    "is_item_file_of",
    "is_temp_name",
    "item_file_name",
    "scope_lock_name",
    "staged_file_name",
    "temp_file_prefix",
]

ITEM_SUFFIX = ".json"
"""Suffix of every item file."""

LOCK_DIR = ".locks"
"""Folder (under the root) of the lock files."""

JOURNAL_DIR = ".journal"
"""Folder (under the root) of the write-ahead records of multi-item batches."""

JOURNAL_SUFFIX = ".wal"
"""Suffix of a complete (committed) journal file."""

STAGING_DIR = ".tmp"
"""Folder (under the root) where new item files are written before they are renamed in.

Keeping every temporary file in one place lets opening a store find a killed writer's
leftovers by listing one folder instead of walking the tree.
"""

_TEMP_SUFFIX = ".tmp"

_PLAIN = re.compile(r"[a-z0-9_-]{1,64}")
# Device names Windows refuses as file names, whatever the extension.
_RESERVED = frozenset(
    ["con", "prn", "aux", "nul"] + [f"com{i}" for i in range(10)] + [f"lpt{i}" for i in range(10)]
)
# Characters some file system rejects or treats specially; `~` separates the hash.
_UNSAFE = '/\\:*?"<>|~'
_SANITISE = str.maketrans(
    {**dict.fromkeys(_UNSAFE, "_"), **{chr(i): "_" for i in range(32)}, "\x7f": "_"}
)
_READABLE_BYTES = 80
_HASH_CHARS = 20


@functools.lru_cache(maxsize=65536)
def encode_component(text: str) -> str:
    """Map a namespace label or key to one safe, collision-free path component.

    Args:
        text: Any string (labels never contain `.`; keys may contain anything but NUL).

    Returns:
        A file-system name without suffix; deterministic for a given text.

    Example:
        ```python
        from langchain_contextchef.store._paths import encode_component

        assert encode_component("prefs") == "prefs"
        assert encode_component("Prefs").lower() != encode_component("prefs").lower()
        assert "/" not in encode_component("../../etc/passwd")
        ```
    """
    if _PLAIN.fullmatch(text) and text not in _RESERVED:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:_HASH_CHARS]
    readable = text.translate(_SANITISE)
    # Lone surrogates cannot appear in a file name.
    readable = readable.encode("utf-8", "replace").decode("utf-8").replace("?", "_")
    # Leading dots would hide the file (or mean `.`/`..`); edge spaces and dots get trimmed
    # by Windows. Replace them so the readable part is never special.
    stripped = readable.lstrip(". ")
    readable = "_" * (len(readable) - len(stripped)) + stripped
    stripped = readable.rstrip(". ")
    readable = stripped + "_" * (len(readable) - len(stripped))
    cut = readable.encode("utf-8")[:_READABLE_BYTES].decode("utf-8", "ignore")
    return f"{cut}~{digest}"


def item_file_name(key: str) -> str:
    """Return the file name of the item with this key."""
    return encode_component(key) + ITEM_SUFFIX


def is_item_file_of(name: str, key: str) -> bool:
    """Whether `name` is the file name of the item `key` (`item_file_name(key) == name`).

    Cheap for plain keys, the common case, which a cold start checks once per file.
    """
    if (
        len(name) == len(key) + len(ITEM_SUFFIX)
        and name.startswith(key)
        and name.endswith(ITEM_SUFFIX)
    ):
        return _PLAIN.fullmatch(key) is not None and key not in _RESERVED
    return item_file_name(key) == name


def encode_namespace(namespace: tuple[str, ...]) -> tuple[str, ...]:
    """Return the folder names (relative to the root) of a namespace."""
    return tuple(map(encode_component, namespace))


def dir_lock_name(parts: tuple[str, ...]) -> str:
    """Return the lock file name guarding every write into the folder `root/parts...`.

    The name derives from the encoded folder path, so a walk of the tree can find the lock of
    any folder it meets without knowing the namespace that made it.
    """
    identity = "/".join(parts)
    return "d-" + hashlib.sha256(identity.encode("utf-8")).hexdigest()[:40] + ".lock"


def scope_lock_name(namespace: tuple[str, ...]) -> str:
    """Return the lock file name of `FileSystemStore.lock(namespace)` (never a folder lock)."""
    identity = json.dumps(list(namespace), ensure_ascii=True)
    return "s-" + hashlib.sha256(identity.encode("ascii")).hexdigest()[:40] + ".lock"


def temp_file_prefix(final_name: str) -> str:
    """Return the prefix of temporary files written before renaming to `final_name`.

    Temporary names start with `.` and end with `.tmp`, so every read and listing skips them.
    """
    return f".{final_name}."


def staged_file_name(lock_name: str) -> str:
    """A fresh name for a file staged in `STAGING_DIR` by the holder of `lock_name`.

    The name starts with the lock's stem, so recovery can tell whether its writer is alive.
    """
    return f"{lock_name.removesuffix('.lock')}.{secrets.token_hex(8)}{_TEMP_SUFFIX}"


def is_temp_name(name: str) -> bool:
    """Whether a directory entry is a temporary file of this store (complete or orphaned)."""
    return name.startswith(".") and name.endswith(_TEMP_SUFFIX)
