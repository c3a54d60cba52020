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
conversation itself live in the checkpointer. Seal them with the same keys:
`InMemorySaver(serde=encrypted_serializer(key))` (or any saver's `serde=`), LangGraph's own
`EncryptedSerializer` with a Fernet cipher.

Only sealed items are served: an item in the inner store that is not sealed (planted there
around the wrapper, or written before encryption was turned on) is never read, searched or
injected; reads treat it as damaged (`CompileMeta.damaged_keys`, an `Error:` for the model,
`DamagedEntryError` from `Memory.get`) until `rotate()` seals it. Run `rotate()` once when
you turn encryption on for an existing store, and only on a store whose items are yours.

Key rotation: build the wrapper with `[new_key, old_key]` and call `rotate()`; every item
is re-encrypted with the new key, after which the old key can be dropped. A key check item
(`("contextchef_encryption",)`, `check`) is read before the first operation, so a wrong key
fails with `DecryptionError` before anything is read or written. Only a write creates the
check item (a read with a wrong key on a new store must not lock the right key out), once,
inside the store's exclusive section, so two processes starting with different keys cannot
both win.

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
import logging
import threading
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from typing import Any

from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph.checkpoint.serde.encrypted import EncryptedSerializer
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
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

__all__ = [
    "SEALED_FIELD",
    "DecryptionError",
    "EncryptedStore",
    "FernetCipher",
    "encrypted_serializer",
    "generate_key",
]

SEALED_FIELD = "__sealed__"
"""The one field of a sealed value (besides `clear_fields`): the Fernet token."""

CHECK_NAMESPACE = ("contextchef_encryption",)
_CHECK_KEY = "check"
_CHECK_TEXT = b"langchain-contextchef key check"
_BULK = 1_000_000

logger = logging.getLogger(__name__)


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


def _writes(ops: Sequence[Op]) -> bool:
    return any(isinstance(op, PutOp) for op in ops)


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
        # Unsealed items the last search of each namespace met (see `unreadable_keys`).
        self._unsealed: dict[tuple[str, ...], set[str]] = {}
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

    def _open(
        self, namespace: tuple[str, ...], key: str, value: dict[str, Any]
    ) -> dict[str, Any] | None:
        token = value.get(SEALED_FIELD)
        if not isinstance(token, str):
            # Not sealed: written around the wrapper (planted in the inner store, or before
            # encryption was turned on). Never served: reads treat it as an item the store
            # cannot read (damaged), until `rotate()` seals it on purpose.
            logger.warning(
                "Refusing the unsealed item %r in %s: an EncryptedStore serves only sealed "
                "items (rotate() seals items written before encryption was turned on).",
                key,
                "/".join(namespace),
            )
            self._unsealed.setdefault(tuple(namespace), set()).add(key)
            return None
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

    def _item(self, item: Item) -> Item | None:
        value = self._open(tuple(item.namespace), item.key, item.value)
        if value is None:
            return None
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
            opened = (self._item(item) for item in result if isinstance(item, Item))
            return [item for item in opened if item is not None]
        return result

    def _note_searches(self, ops: Sequence[Op]) -> None:
        # A search answers afresh which of its namespaces' items are unsealed.
        for op in ops:
            if isinstance(op, SearchOp):
                prefix = tuple(op.namespace_prefix)
                for namespace in [ns for ns in self._unsealed if ns[: len(prefix)] == prefix]:
                    del self._unsealed[namespace]

    # ---- the key check ---------------------------------------------------------------------

    def _check_ops(self) -> GetOp:
        return GetOp(CHECK_NAMESPACE, _CHECK_KEY, refresh_ttl=False)

    def _new_check(self) -> PutOp:
        token = self._fernet.encrypt(_CHECK_TEXT).decode()
        return PutOp(CHECK_NAMESPACE, _CHECK_KEY, {SEALED_FIELD: token}, index=False)

    def _judge_check(self, found: Item | None) -> bool:
        """Whether the check item exists and opens with our keys (raises if it does not open)."""
        if found is None:
            return False
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
        return True

    def _ensure_key(self, *, writing: bool) -> None:
        """Check the keys against the store's check item before the first operation.

        Only a write establishes the check item: a read on a store without one proves
        nothing about the key and must not lock the right key out. The first write creates
        it once, inside the store's exclusive section for the check, so two processes that
        start at once cannot each write a check for a different key.
        """
        if self._checked:
            return
        with self._check_lock:
            if self._checked:
                return
            (found,) = self.store.batch([self._check_ops()])
            if self._judge_check(found):  # type: ignore[arg-type]
                self._checked = True
                return
            if not writing:
                return  # nothing to check against yet; items that do not open still fail
            with exclusive(self.store, CHECK_NAMESPACE):
                (found,) = self.store.batch([self._check_ops()])
                if not self._judge_check(found):  # type: ignore[arg-type]
                    self.store.batch([self._new_check()])
            self._checked = True

    async def _aensure_key(self, *, writing: bool) -> None:
        """Async `_ensure_key`."""
        if self._checked:
            return
        (found,) = await self.store.abatch([self._check_ops()])
        if self._judge_check(found):  # type: ignore[arg-type]
            self._checked = True
            return
        if not writing:
            return
        async with aexclusive(self.store, CHECK_NAMESPACE):
            (found,) = await self.store.abatch([self._check_ops()])
            if not self._judge_check(found):  # type: ignore[arg-type]
                await self.store.abatch([self._new_check()])
        self._checked = True

    # ---- BaseStore --------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run `ops` on the inner store, sealing what is written and opening what is read."""
        given = list(ops)
        self._ensure_key(writing=_writes(given))
        results = self.store.batch([self._inner_op(op) for op in given])
        self._note_searches(given)
        return [self._result(op, result) for op, result in zip(given, results, strict=True)]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async `batch`."""
        given = list(ops)
        await self._aensure_key(writing=_writes(given))
        results = await self.store.abatch([self._inner_op(op) for op in given])
        self._note_searches(given)
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

    def _unsealed_ops(self, namespace: tuple[str, ...], keys: list[str] | None) -> list[Op]:
        if keys is None:
            return [SearchOp(namespace, limit=_BULK, refresh_ttl=False)]
        return [GetOp(namespace, key, refresh_ttl=False) for key in keys]

    def _unsealed_in(
        self, namespace: tuple[str, ...], keys: list[str] | None, results: list[Result]
    ) -> set[str]:
        found = results[0] if keys is None else results
        items = [i for i in found if isinstance(i, Item)] if isinstance(found, list) else []
        return {
            item.key
            for item in items
            if tuple(item.namespace) == namespace
            and not isinstance(item.value.get(SEALED_FIELD), str)
        }

    def _merge(self, inner: Iterable[str], unsealed: set[str], keys: list[str] | None) -> list[str]:
        wanted = unsealed if keys is None else unsealed & set(keys)
        return sorted({*inner, *wanted})

    def unreadable_keys(
        self, namespace: tuple[str, ...], keys: Iterable[str] | None = None, *, read: bool = False
    ) -> list[str]:
        """The keys (of `keys`, or all) in `namespace` this store cannot serve.

        The inner store's own answer (see `FileSystemStore.unreadable_keys`) and every
        unsealed item, which this store refuses to serve. `read`: the caller has just
        searched the namespace, so the unsealed items that search met answer it.
        """
        namespace = tuple(namespace)
        wanted = None if keys is None else list(keys)
        report = getattr(self.store, "unreadable_keys", None)
        inner = list(report(namespace, wanted, read=read)) if callable(report) else []
        if read and wanted is None:
            return self._merge(inner, self._unsealed.get(namespace, set()), None)
        if wanted == []:
            return inner
        results = self.store.batch(self._unsealed_ops(namespace, wanted))
        return self._merge(inner, self._unsealed_in(namespace, wanted, results), wanted)

    async def aunreadable_keys(
        self, namespace: tuple[str, ...], keys: Iterable[str] | None = None, *, read: bool = False
    ) -> list[str]:
        """Async `unreadable_keys`."""
        namespace = tuple(namespace)
        wanted = None if keys is None else list(keys)
        report = getattr(self.store, "aunreadable_keys", None)
        inner = list(await report(namespace, wanted, read=read)) if callable(report) else []
        if read and wanted is None:
            return self._merge(inner, self._unsealed.get(namespace, set()), None)
        if wanted == []:
            return inner
        results = await self.store.abatch(self._unsealed_ops(namespace, wanted))
        return self._merge(inner, self._unsealed_in(namespace, wanted, results), wanted)

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
        self._ensure_key(writing=True)
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
        await self._aensure_key(writing=True)
        count = 0
        for namespace in await run_async(namespaces_under(prefix), self.store):
            async with aexclusive(self, _scope_of(namespace)):
                items = await self.store.asearch(namespace, limit=_BULK)
                ops = self._rotated(items, namespace)
                if ops:
                    await self.store.abatch(ops)
                count += len(ops)
        return count


# ---- the checkpointer ---------------------------------------------------------------------------


class FernetCipher:
    """LangGraph's `CipherProtocol` over the same Fernet keys as `EncryptedStore`.

    Args:
        keys: One key, or several: the first encrypts, every one decrypts (rotation).
    """

    name = "fernet"

    def __init__(self, keys: str | bytes | Sequence[str | bytes]) -> None:
        self._fernet = _multi(keys)
        self._invalid = _fernet_module().InvalidToken

    def encrypt(self, plaintext: bytes) -> tuple[str, bytes]:
        """Seal `plaintext`; returns the cipher's name and the token."""
        token: bytes = self._fernet.encrypt(plaintext)
        return self.name, token

    def decrypt(self, ciphername: str, ciphertext: bytes) -> bytes:
        """Open a token this cipher sealed.

        Raises:
            DecryptionError: For another cipher's data, or a token none of the keys opens.
        """
        if ciphername != self.name:
            msg = f"This checkpoint was sealed with the cipher {ciphername!r}, not 'fernet'."
            raise DecryptionError(msg)
        try:
            opened: bytes = self._fernet.decrypt(ciphertext)
        except self._invalid as exc:
            msg = (
                "Cannot decrypt a checkpoint: none of the keys given opens it. Pass every key "
                "the checkpoints were written with (while rotating, [new_key, old_key])."
            )
            raise DecryptionError(msg) from exc
        return opened


def encrypted_serializer(
    keys: str | bytes | Sequence[str | bytes], *, serde: SerializerProtocol | None = None
) -> EncryptedSerializer:
    """A LangGraph checkpoint serializer that seals every checkpoint with your keys.

    `EncryptedStore` seals the store; LangGraph keeps the conversation and every pending
    interrupt in the checkpointer, and a consent interrupt's payload holds the proposed
    write (the old and the new value). Give the checkpointer this serializer, built from the
    same keys, so those are sealed too: it is LangGraph's own
    `langgraph.checkpoint.serde.encrypted.EncryptedSerializer` with a Fernet cipher
    (`FernetCipher`). Checkpoints written before it was turned on stay readable (LangGraph
    reads unsealed checkpoints as they are); new ones are sealed.

    Args:
        keys: One key, or several: the first encrypts, every one decrypts (rotation).
        serde: The serializer whose bytes are sealed; LangGraph's `JsonPlusSerializer` by
            default.

    Returns:
        An `EncryptedSerializer`, for `InMemorySaver(serde=...)`, `SqliteSaver(conn,
        serde=...)`, `PostgresSaver(conn, serde=...)` and the async savers.

    Example:
        ```python
        from langgraph.checkpoint.memory import InMemorySaver
        from langchain_contextchef.encryption import encrypted_serializer, generate_key

        key = generate_key()
        serde = encrypted_serializer(key)
        kind, data = serde.dumps_typed({"old": "dry", "new": "SECRET wry"})
        assert kind.endswith("+fernet") and b"SECRET" not in data
        assert serde.loads_typed((kind, data)) == {"old": "dry", "new": "SECRET wry"}
        checkpointer = InMemorySaver(serde=serde)
        ```
    """
    return EncryptedSerializer(FernetCipher(keys), serde or JsonPlusSerializer())
