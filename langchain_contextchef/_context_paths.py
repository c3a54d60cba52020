"""Parsing `context://<namespace>/<path>` addresses for the `context` tool.

The model may omit the `context://` prefix and may start with `/`. A bare namespace, or a path
ending in `/`, names a directory. Parsing never touches storage; a refusal is returned as the
exact `Error: ...` text the model sees.

One rule for whitespace, whichever vocabulary names a key: a key (the legacy tools' `key`,
an item of `supersedes`) and an address (the `context` tool's `path` and `new_path`) may not
start or end with whitespace, nor may the path inside an address. `" lang"`, `"lang\u3000"`
and `"memory/ lang"` would otherwise name look-alikes of `lang`, or be taken for it; the
refusal (`padded_error`) names the spelling to use instead. "Whitespace" is what Python's
`str.isspace` calls whitespace, the same test `Memory.set` applies to a developer's key.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "MAX_PATH_LENGTH",
    "NAMESPACES",
    "SCHEME",
    "WRITABLE_NAMESPACES",
    "ContextPath",
    "is_padded",
    "memory_uri",
    "padded_error",
    "parse_context_path",
]

SCHEME = "context://"

NAMESPACES = ("memory", "notes", "vfs", "archive")
"""Every namespace the `context` tool can address, in the order the model is told about them."""

WRITABLE_NAMESPACES = ("memory", "notes")
"""Namespaces the model may write through the `context` tool; the rest are read-only."""

MAX_PATH_LENGTH = 256
"""Longest key or note path the model may address; keeps every backend's key limits safe."""


@dataclass(frozen=True)
class ContextPath:
    """One parsed address.

    Attributes:
        namespace: `memory`, `notes`, `vfs` or `archive`.
        path: The path inside the namespace (a memory key or a note path); for a directory,
            the prefix ending in `/`, or `""` for the namespace root.
        is_dir: Whether the address names a directory.
    """

    namespace: str
    path: str
    is_dir: bool

    @property
    def uri(self) -> str:
        """The canonical address, e.g. `context://notes/plan.md`."""
        return f"{SCHEME}{self.namespace}/{self.path}"

    @property
    def root(self) -> str:
        """The namespace root, e.g. `context://memory/`."""
        return f"{SCHEME}{self.namespace}/"

    @property
    def writable(self) -> bool:
        """Whether the model may write here."""
        return self.namespace in WRITABLE_NAMESPACES


def memory_uri(key: str) -> str:
    """How the model names a memory entry: `context://memory/<key>`.

    The one place the address of an entry is spelled; every text that names an entry uses it.

    Example:
        ```python
        from langchain_contextchef._context_paths import memory_uri

        assert memory_uri("lang") == "context://memory/lang"
        ```
    """
    return f"{SCHEME}memory/{key}"


def is_padded(text: str) -> bool:
    """Whether `text` starts or ends with whitespace (anything `str.isspace` accepts).

    Example:
        ```python
        from langchain_contextchef._context_paths import is_padded

        assert is_padded(" lang") and is_padded("lang\u3000") and not is_padded("a b")
        ```
    """
    return text != text.strip()


def padded_error(given: str, use: str) -> str:
    """The model-facing refusal of a key or address that starts or ends with whitespace.

    Args:
        given: The key or address as the model wrote it.
        use: The spelling without the whitespace, offered instead.
    """
    return (
        f'Error: "{_shown(given)}" starts or ends with whitespace; memory keys and context '
        f'paths may not. Use "{_shown(use)}".'
    )


def _shown(text: str) -> str:
    # Whitespace other than a plain space, and invisible characters, are spelled as escapes
    # so the model can see what to drop.
    return "".join(
        ch if ch == " " or (ch.isprintable() and not ch.isspace()) else f"\\u{ord(ch):04x}"
        for ch in text
    )


def _unpadded_address(raw: str) -> str:
    """`raw` with the whitespace taken off the address and off the path inside it."""
    rest = raw.strip()
    scheme = SCHEME if rest.startswith(SCHEME) else ""
    body = rest[len(scheme) :]
    slashes = body[: len(body) - len(body.lstrip("/"))]
    namespace, slash, inner = body[len(slashes) :].partition("/")
    return f"{scheme}{slashes}{namespace.strip()}{slash}{inner.strip()}"


def _not_a_path(raw: str) -> str:
    return f'Error: "{raw}" is not a context path. Use context://<namespace>/<path>.'


def parse_context_path(raw: str) -> ContextPath | str:
    """Parse an address the model gave; return the parsed path or an `Error: ...` text.

    Args:
        raw: The `path` argument, e.g. `context://memory/lang`, `notes/plan.md` or `/memory/`.

    Returns:
        A `ContextPath`, or the error text to hand back to the model.
    """
    if is_padded(raw):
        return padded_error(raw, _unpadded_address(raw))
    rest = raw
    if rest.startswith(SCHEME):
        rest = rest[len(SCHEME) :]
    rest = rest.lstrip("/")
    namespace, _, inner = rest.partition("/")
    if not namespace:
        return _not_a_path(raw)
    segments = inner.split("/") if inner else []
    if namespace == ".." or ".." in segments:
        return f'Error: "{raw}" is not a context path: ".." is not allowed in a path.'
    if namespace not in NAMESPACES:
        known = ", ".join(f"{SCHEME}{ns}/" for ns in NAMESPACES)
        return f"Error: {SCHEME}{namespace}/ is not a known namespace. Use one of: {known}."
    is_dir = not inner or inner.endswith("/")
    inner_segments = segments[:-1] if is_dir and segments else segments
    # Empty or "." segments would give one entry two addresses; refuse them outright.
    if any(seg in ("", ".") for seg in inner_segments):
        return _not_a_path(raw)
    if is_padded(inner):  # "memory/ lang": the key itself is padded
        return padded_error(raw, _unpadded_address(raw))
    if len(inner) > MAX_PATH_LENGTH:
        return (
            f"Error: the path inside {SCHEME}{namespace}/ is {len(inner)} characters long; "
            f"use at most {MAX_PATH_LENGTH}."
        )
    return ContextPath(namespace, inner, is_dir)
