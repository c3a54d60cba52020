"""Encryption at rest: a LangGraph store wrapper that seals every item value with your key.

`EncryptedStore(store, keys)` wraps any LangGraph `BaseStore` (`FileSystemStore`,
`SqliteStore`, `PostgresStore`, `InMemoryStore`, ...). Every value it writes is stored as
`{"__sealed__": "<token>"}`: the whole JSON value encrypted and authenticated with
`cryptography`'s Fernet (AES-128-CBC with an HMAC-SHA256 tag; `MultiFernet` for several keys,
the first one encrypting). Reads open it again, so the rest of the package never knows.
Install the extra: `pip install "langchain-contextchef[encryption]"`.

Why a store wrapper, and not a codec in the entry's (de)serialisation: memory text reaches
the store through more than entries. History records copy whole entries, notes hold the
model's drafts, quarantined entries and consent proposals hold text nobody approved yet, and
the audit trail names keys. A codec in `MemoryEntry.to_stored` would cover entries and
history only, and every new record kind would have to remember it. At the store boundary
nothing the package (or your own code on the same store) writes can pass in the clear.

What stays readable: namespaces and item keys (the store needs them to find items; choose
keys that are not secret themselves), the store's own timestamps, and the value fields you
list in `clear_fields` (by default only `key`, which history filters on and which repeats the
item key). Semantic search is off: an index over ciphertext means nothing, and an index over
the plaintext would store vectors derived from it, so the wrapper reports no index and never
asks the inner store to embed; a relevance selector ranks without search scores. LangGraph
checkpoints are not the store: a consent interrupt's proposal (old and new value) and the
conversation itself live in the checkpointer, which has its own `EncryptedSerializer`.

Key rotation: build the wrapper with `[new_key, old_key]` and call `rotate()`; every item
is re-encrypted with the new key, after which the old key can be dropped. A key check item
(`("contextchef_encryption",)`, `check`) is read before the first operation, so a wrong key
fails with `DecryptionError` before anything is read or written.

Example:
    ```python
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef import Memory
    from langchain_contextchef.encryption import EncryptedStore, generate_key

    raw = InMemoryStore()
    key = generate_key()
    memory = Memory(EncryptedStore(raw, key), scope=("users", "ada"))
    memory.set("card", "4111 1111 1111 1111", description="payment card")
    assert memory.get("card") == "4111 1111 1111 1111"
    (item,) = raw.search(("users", "ada", "memory"))
    assert "4111" not in str(item.value) and set(item.value) == {"__sealed__"}
    ```
"""

from __future__ import annotations

import contextlib
import importlib
import json
import threading
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from langchain_contextchef._plan import namespaces_under, run_async, run_sync
from langchain_contextchef._sections import aexclusive, exclusive
from langchain_contextchef.errors import ContextChefError

__all__ = ["SEALED_FIELD", "DecryptionError", "EncryptedStore", "generate_key"]

SEALED_FIELD = "__sealed__"
"""The one field of a sealed value (besides `clear_fields`): the Fernet token."""

CHECK_NAMESPACE = ("contextchef_encryption",)
_CHECK_KEY = "check"
_CHECK_TEXT = b"langchain-contextchef key check"
_BULK = 1_000_000


class DecryptionError(ContextChefError):
    """A stored value cannot be opened with the keys given: nothing was read or written."""


def _fernet_module() -> Any:
    try:
        return importlib.import_module("cryptography.fernet")
    except ImportError as exc:  # pragma: no cover - the extra is installed in tests
        msg = (
            "Encryption needs the 'cryptography' package: "
            'pip install "langchain-contextchef[encryption]".'
        )
        raise ImportError(msg) from exc


def generate_key() -> str:
    """A new random key (url-safe base64 text) for `EncryptedStore`; keep it in a secret store.

    Example:
        ```python
        from langchain_contextchef.encryption import generate_key

        assert len(generate_key()) == 44
        ```
    """
    key: bytes = _fernet_module().Fernet.generate_key()
    return key.decode("ascii")


def _multi(keys: str | bytes | Sequence[str | bytes]) -> Any:
    module = _fernet_module()
    given = [keys] if isinstance(keys, str | bytes) else list(keys)
    if not given:
        msg = "EncryptedStore needs at least one key (see generate_key())."
        raise ValueError(msg)
    fernets = []
    for position, key in enumerate(given):
        try:
            fernets.append(module.Fernet(key))
        except (ValueError, TypeError) as exc:
            msg = (
                f"Key #{position + 1} is not a valid encryption key: it must be 32 url-safe "
                "base64-encoded bytes, as generate_key() makes."
            )
            raise ValueError(msg) from exc
    return module.MultiFernet(fernets)


def _scope_of(namespace: tuple[str, ...]) -> tuple[str, ...]:
    # The exclusive section a namespace's writers hold: memory labels sit under their scope.
    return namespace[:-1] if len(namespace) > 1 else namespace


class EncryptedStore(BaseStore):
    """A LangGraph store whose values are encrypted with your key before the inner store sees them.

    Args:
        store: The store that holds the sealed values.
        keys: One key, or several: the first encrypts, every one decrypts (rotation).
        clear_fields: Top-level value fields kept readable beside the token, so the inner
            store can filter on them (`search(filter=...)` may only name these).

    Raises:
        ImportError: Without the `cryptography` package (the `encryption` extra).
        ValueError: For a malformed key.
    """

    def __init__(
        self,
        store: BaseStore,
        keys: str | bytes | Sequence[str | bytes],
        *,
        clear_fields: Sequence[str] = ("key",),
    ) -> None:
        if not isinstance(store, BaseStore):
            msg = f"EncryptedStore wraps a LangGraph BaseStore, got {type(store).__name__}."
            raise TypeError(msg)
        self.store = store
        self.clear_fields = tuple(clear_fields)
        self._fernet = _multi(keys)
        self._invalid = _fernet_module().InvalidToken
        self._checked = False
        self._check_lock = threading.Lock()
        self.supports_ttl = store.supports_ttl
        self.ttl_config = store.ttl_config

    def __repr__(self) -> str:
        return f"EncryptedStore({self.store!r})"

    # ---- sealing ---------------------------------------------------------------------------

    def _seal(self, value: Mapping[str, Any]) -> dict[str, Any]:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        sealed: dict[str, Any] = {SEALED_FIELD: self._fernet.encrypt(text.encode()).decode()}
        for name in self.clear_fields:
            if name in value and isinstance(value[name], str | int | float | bool | None):
                sealed[name] = value[name]
        return sealed

    def _open(self, namespace: tuple[str, ...], key: str, value: dict[str, Any]) -> dict[str, Any]:
        token = value.get(SEALED_FIELD)
        if not isinstance(token, str):
            return value  # written before encryption was enabled; `rotate()` seals it
        try:
            opened: dict[str, Any] = json.loads(self._fernet.decrypt(token.encode()))
        except self._invalid as exc:
            where = "/".join(namespace)
            msg = (
                f"Cannot decrypt the item {key!r} in {where}: none of the keys given opens "
                "it. Pass every key the store's items were written with (while rotating, "
                "[new_key, old_key]) and finish the rotation with rotate()."
            )
            raise DecryptionError(msg) from exc
        return opened

    def _item(self, item: Item) -> Item:
        value = self._open(tuple(item.namespace), item.key, item.value)
        if isinstance(item, SearchItem):
            return SearchItem(
                tuple(item.namespace),
                item.key,
                value,
                item.created_at,
                item.updated_at,
                item.score,
            )
        return Item(
            value=value,
            key=item.key,
            namespace=tuple(item.namespace),
            created_at=item.created_at,
            updated_at=item.updated_at,
        )

    def _inner_op(self, op: Op) -> Op:
        if isinstance(op, PutOp):
            if op.value is None:
                return op
            # Never embed: vectors of the plaintext would leak it.
            return PutOp(op.namespace, op.key, self._seal(op.value), index=False, ttl=op.ttl)
        if isinstance(op, SearchOp):
            unknown = sorted(set(op.filter or {}) - set(self.clear_fields))
            if unknown:
                msg = (
                    f"An EncryptedStore cannot filter on {unknown}: those fields are encrypted. "
                    f"Filter only on clear_fields {list(self.clear_fields)}, or list the field "
                    "there when you build the store."
                )
                raise ValueError(msg)
            return SearchOp(
                op.namespace_prefix, op.filter, op.limit, op.offset, None, op.refresh_ttl
            )
        return op

    def _result(self, op: Op, result: Result) -> Result:
        if isinstance(op, GetOp) and isinstance(result, Item):
            return self._item(result)
        if isinstance(op, SearchOp) and isinstance(result, list):
            return [self._item(item) for item in result if isinstance(item, Item)]
        return result

    # ---- the key check ---------------------------------------------------------------------

    def _check_ops(self) -> GetOp:
        return GetOp(CHECK_NAMESPACE, _CHECK_KEY, refresh_ttl=False)

    def _judge_check(self, found: Item | None) -> list[Op]:
        if found is None:
            token = self._fernet.encrypt(_CHECK_TEXT).decode()
            return [PutOp(CHECK_NAMESPACE, _CHECK_KEY, {SEALED_FIELD: token}, index=False)]
        token = found.value.get(SEALED_FIELD)
        try:
            ok = isinstance(token, str) and self._fernet.decrypt(token.encode()) == _CHECK_TEXT
        except self._invalid:
            ok = False
        if not ok:
            msg = (
                "The encryption key does not match this store: it was encrypted with another "
                "key. Pass the key it was written with (while rotating, [new_key, old_key]). "
                "Nothing was read or written."
            )
            raise DecryptionError(msg)
        return []

    def _ensure_key(self) -> None:
        if self._checked:
            return
        with self._check_lock:
            if not self._checked:
                (found,) = self.store.batch([self._check_ops()])
                writes = self._judge_check(found)  # type: ignore[arg-type]
                if writes:
                    self.store.batch(writes)
                self._checked = True

    async def _aensure_key(self) -> None:
        if self._checked:
            return
        (found,) = await self.store.abatch([self._check_ops()])
        writes = self._judge_check(found)  # type: ignore[arg-type]
        if writes:
            await self.store.abatch(writes)
        self._checked = True

    # ---- BaseStore --------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run `ops` on the inner store, sealing what is written and opening what is read."""
        self._ensure_key()
        given = list(ops)
        results = self.store.batch([self._inner_op(op) for op in given])
        return [self._result(op, result) for op, result in zip(given, results, strict=True)]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async `batch`."""
        await self._aensure_key()
        given = list(ops)
        results = await self.store.abatch([self._inner_op(op) for op in given])
        return [self._result(op, result) for op, result in zip(given, results, strict=True)]

    # ---- exclusive sections: the inner store's -----------------------------------------------

    @contextlib.contextmanager
    def lock(self, namespace: tuple[str, ...]) -> Iterator[None]:
        """Hold the inner store's exclusive section for `namespace` (see `_sections`)."""
        with exclusive(self.store, tuple(namespace)):
            yield

    @contextlib.asynccontextmanager
    async def alock(self, namespace: tuple[str, ...]) -> AsyncIterator[None]:
        """Async `lock`."""
        async with aexclusive(self.store, tuple(namespace)):
            yield

    # ---- items the inner store holds but cannot read -------------------------------------------

    def unreadable_keys(
        self, namespace: tuple[str, ...], keys: Iterable[str] | None = None, *, read: bool = False
    ) -> list[str]:
        """The inner store's answer (see `FileSystemStore.unreadable_keys`); `[]` without one."""
        report = getattr(self.store, "unreadable_keys", None)
        return list(report(tuple(namespace), keys, read=read)) if callable(report) else []

    async def aunreadable_keys(
        self, namespace: tuple[str, ...], keys: Iterable[str] | None = None, *, read: bool = False
    ) -> list[str]:
        """Async `unreadable_keys`."""
        report = getattr(self.store, "aunreadable_keys", None)
        return list(await report(tuple(namespace), keys, read=read)) if callable(report) else []

    # ---- rotation ---------------------------------------------------------------------------

    def _rotated(self, items: Sequence[Item], namespace: tuple[str, ...]) -> list[PutOp]:
        ops: list[PutOp] = []
        for item in items:
            if tuple(item.namespace) != namespace:
                continue
            token = item.value.get(SEALED_FIELD)
            if isinstance(token, str):
                try:
                    fresh = self._fernet.rotate(token.encode()).decode()
                except self._invalid as exc:
                    msg = (
                        f"Cannot rotate the item {item.key!r} in {'/'.join(namespace)}: none "
                        "of the keys given opens it. This namespace was left as it was."
                    )
                    raise DecryptionError(msg) from exc
                value = {**item.value, SEALED_FIELD: fresh}
            else:
                value = self._seal(item.value)
            ops.append(PutOp(namespace, item.key, value, index=False))
        return ops

    def rotate(self, prefix: Sequence[str] = ()) -> int:
        """Re-encrypt every item under `prefix` with the first key (and seal plaintext ones).

        Build the wrapper with `[new_key, old_key, ...]`, call `rotate()`, then drop the old
        keys. Each namespace is rewritten in one batch inside its scope's exclusive section,
        so concurrent writers never lose an update.

        Returns:
            How many items were rewritten.

        Raises:
            DecryptionError: If an item opens with none of the keys (its namespace is left
                as it was).

        Example:
            ```python
            from langgraph.store.memory import InMemoryStore
            from langchain_contextchef import Memory
            from langchain_contextchef.encryption import EncryptedStore, generate_key

            raw, old, new = InMemoryStore(), generate_key(), generate_key()
            Memory(EncryptedStore(raw, old)).set("tone", "dry")
            assert EncryptedStore(raw, [new, old]).rotate() >= 1
            assert Memory(EncryptedStore(raw, new)).get("tone") == "dry"
            ```
        """
        self._ensure_key()
        count = 0
        for namespace in run_sync(namespaces_under(prefix), self.store):
            with exclusive(self, _scope_of(namespace)):
                items = self.store.search(namespace, limit=_BULK)
                ops = self._rotated(items, namespace)
                if ops:
                    self.store.batch(ops)
                count += len(ops)
        return count

    async def arotate(self, prefix: Sequence[str] = ()) -> int:
        """Async `rotate`."""
        await self._aensure_key()
        count = 0
        for namespace in await run_async(namespaces_under(prefix), self.store):
            async with aexclusive(self, _scope_of(namespace)):
                items = await self.store.asearch(namespace, limit=_BULK)
                ops = self._rotated(items, namespace)
                if ops:
                    await self.store.abatch(ops)
                count += len(ops)
        return count
