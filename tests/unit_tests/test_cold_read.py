"""A cold read's shortcuts give what the strict, general paths give (issue 28).

`MemoryEntry.from_stored` reads the layout `to_stored` writes in one pass and leaves
anything else to the strict field-by-field parse; the keyword index sorts its fallback
order in stable passes instead of building a key per entry. Each shortcut is checked
against the general path on generated values, and bad values still fail as before.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_contextchef.entry import MemoryEntry, Provenance, format_time
from langchain_contextchef.selectors._index import fallback_key, fallback_sorted

NOW = datetime(2026, 5, 25, tzinfo=timezone.utc)
_SLOTS = MemoryEntry.__slots__

_times = st.integers(min_value=0, max_value=3).map(lambda s: NOW + timedelta(seconds=s))
_texts = st.one_of(
    st.none(),
    st.sampled_from(["", "a note", "2026-05-25T00:00:00.000000Z"]),
    st.text(max_size=8),
)
_time_texts = st.one_of(
    _times.map(format_time),
    st.sampled_from(
        [
            "2026-05-25T00:00:00Z",  # not the form format_time writes: the strict path reads it
            "2026-05-25T00:00:00.000000+00:00",
            "2026-05-25T02:00:00.000000+02:00",
            "2026-05-25 00:00:00.000000Z",
            "2026-05-25T00:00:00.00000xZ",  # 27 characters ending in Z, not a time
            "not a time at all, 27 chars",
            "",
        ]
    ),
    st.integers(),
    st.none(),
)
_any_value = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-2, max_value=5),
    st.floats(allow_nan=False),
    st.text(max_size=5),
    st.lists(st.text(max_size=3), max_size=2),
    st.dictionaries(st.sampled_from(["written_by", "source"]), st.text(max_size=3), max_size=2),
)


def _stored_values() -> st.SearchStrategy[dict[str, Any]]:
    """Stored values close to what `to_stored` writes, each field sometimes changed or dropped."""

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        entry = MemoryEntry(
            key="k",
            value=draw(st.text(max_size=10)),
            created_at=draw(_times),
            updated_at=draw(_times),
            description=draw(st.one_of(st.none(), st.text(max_size=6))),
            update_count=draw(st.integers(min_value=1, max_value=4)),
            importance=draw(st.one_of(st.none(), st.floats(allow_nan=False), st.integers())),
            expires_at_turn=draw(st.one_of(st.none(), st.integers(min_value=0, max_value=9))),
            expires_at=draw(st.one_of(st.none(), _times)),
            type=draw(st.one_of(st.none(), st.sampled_from(["fact", "rule"]))),
            status=draw(st.sampled_from(["active", "quarantined"])),
            provenance=draw(
                st.one_of(
                    st.none(),
                    st.just(Provenance(written_by="model")),
                    st.just(Provenance(written_by="developer", source="m1", confidence=0.5)),
                )
            ),
            supersedes=draw(st.sampled_from([(), ("old",)])),
            last_recalled_at=draw(st.one_of(st.none(), _times)),
        )
        data = entry.to_stored()
        fields = [*data, "supersedes", "last_recalled_at"]
        for name in draw(st.lists(st.sampled_from(fields), max_size=3, unique=True)):
            how = draw(st.sampled_from(["drop", "time", "other"]))
            if how == "drop":
                data.pop(name, None)
            elif how == "time":
                data[name] = draw(_time_texts)
            else:
                data[name] = draw(_any_value)
        return data

    return build()


def _outcome(read: Any, data: dict[str, Any]) -> tuple[str, Any]:
    try:
        entry = read("k", data)
    except (ValueError, TypeError, KeyError) as exc:
        return ("error", (type(exc), str(exc)))
    return ("entry", tuple((name, getattr(entry, name)) for name in _SLOTS))


@settings(max_examples=400, deadline=None)
@given(_stored_values())
def test_the_one_pass_read_gives_the_strict_parse(data: dict[str, Any]) -> None:
    strict = _outcome(MemoryEntry._parse, data)
    assert _outcome(MemoryEntry.from_stored, data) == strict
    if strict[0] == "entry":  # same moments, in the same zone (UTC), not only equal ones
        entry = MemoryEntry.from_stored("k", data)
        assert type(entry) is MemoryEntry
        assert entry.created_at.utcoffset() == timedelta(0)
        assert entry.updated_at.utcoffset() == timedelta(0)


def test_the_common_layout_reads_as_the_entry_written() -> None:
    entry = MemoryEntry(
        key="k",
        value="v",
        created_at=NOW,
        updated_at=NOW + timedelta(seconds=1),
        description="d",
        update_count=2,
        importance=1,
        expires_at_turn=4,
        expires_at=NOW + timedelta(days=1),
        type="fact",
        provenance=Provenance(written_by="model"),
    )
    assert MemoryEntry.from_stored("k", entry.to_stored()) == entry


@pytest.mark.parametrize(
    ("field", "bad", "named"),
    [
        ("value", 3, "'value' field is not a string"),
        ("created_at", "yesterday, roughly, at noon", "'created_at'"),
        ("created_at", None, "'created_at'"),
        ("updated_at", 17, "'updated_at'"),
        ("update_count", 0, "'update_count'"),
        ("update_count", True, "'update_count'"),
        ("importance", "high", "'importance'"),
        ("expires_at_turn", 2.5, "'expires_at_turn'"),
        ("expires_at", "2026-05-25T00:00:00.00000xZ", "'expires_at'"),
        ("status", "deleted", "'status'"),
        ("provenance", "model", "'provenance'"),
        ("description", 5, "'description'"),
    ],
)
def test_damaged_values_still_fail_with_the_field_named(field: str, bad: Any, named: str) -> None:
    data = MemoryEntry(key="k", value="v", created_at=NOW, updated_at=NOW).to_stored()
    data[field] = bad
    with pytest.raises(ValueError, match=named):
        MemoryEntry.from_stored("k", data)


def test_a_shared_dict_holds_each_repeated_description_once() -> None:
    written = [
        MemoryEntry(
            key=f"k{i}",
            value=f"v{i}",
            created_at=NOW,
            updated_at=NOW,
            description="A project convention stated by the user.",
            type="rule",
        ).to_stored()
        for i in range(3)
    ]
    # Separate string objects, as a store that decodes JSON hands them out.
    for data in written:
        data["description"] = "".join(list(data["description"]))
        data["type"] = "".join(list(data["type"]))
    share: dict[str, str] = {}
    read = [MemoryEntry.from_stored(f"k{i}", d, share=share) for i, d in enumerate(written)]
    assert read[0].description is read[1].description is read[2].description
    assert read[0].type is read[2].type
    unshared = [MemoryEntry.from_stored(f"k{i}", d) for i, d in enumerate(written)]
    assert unshared[0].description is not unshared[1].description
    assert read == unshared


_entries = st.lists(
    st.builds(
        lambda i, created, updated, importance: MemoryEntry(
            key=f"k{i}",
            value="v",
            created_at=NOW + timedelta(seconds=created),
            updated_at=NOW + timedelta(seconds=created + updated),
            importance=importance,
        ),
        st.integers(min_value=0, max_value=40),
        st.integers(min_value=0, max_value=2),
        st.integers(min_value=0, max_value=2),
        st.one_of(st.none(), st.sampled_from([0.0, 1.0, -1.0, 2.5]), st.integers(-1, 2)),
    ),
    max_size=30,
    unique_by=lambda e: e.key,
)


@settings(max_examples=300, deadline=None)
@given(_entries)
def test_the_fallback_order_in_passes_is_the_order_of_its_key(
    entries: list[MemoryEntry],
) -> None:
    expected = [e.key for e in sorted(entries, key=fallback_key)]
    assert fallback_sorted(entries) == expected


def test_the_fallback_order_keeps_the_key_order_for_odd_values() -> None:
    naive = MemoryEntry(
        key="a", value="v", created_at=datetime(2026, 5, 26), updated_at=datetime(2026, 5, 26)
    )
    aware = MemoryEntry(key="b", value="v", created_at=NOW, updated_at=NOW)
    unknown = MemoryEntry(key="c", value="v", created_at=NOW, updated_at=NOW, importance=math.nan)
    for group in ([naive, aware], [aware, unknown, naive], [unknown, aware]):
        assert fallback_sorted(group) == [e.key for e in sorted(group, key=fallback_key)]


def test_a_whole_read_is_sized_as_its_entries_one_by_one() -> None:
    from langchain_contextchef.memory._cache import _total_size, entry_size

    entries = [
        MemoryEntry(
            key=f"k{i}",
            value="v" * i,
            created_at=NOW,
            updated_at=NOW,
            description=None if i % 3 else "d" * i,
        )
        for i in range(12)
    ]
    assert _total_size(entries) == sum(map(entry_size, entries))
    assert _total_size([]) == 0


def test_a_read_entry_holds_no_copy_of_its_status() -> None:
    data = MemoryEntry(key="k", value="v", created_at=NOW, updated_at=NOW).to_stored()
    for status in ("active", "quarantined"):
        data["status"] = "".join(list(status))  # a string of its own, as a JSON decoder makes
        assert MemoryEntry.from_stored("k", data).status is status
        assert MemoryEntry._parse("k", data).status is status


def test_a_scan_keeps_only_the_items_of_its_own_namespace() -> None:
    from types import SimpleNamespace

    from langgraph.store.base import Item

    from langchain_contextchef.memory._context import entries_and_damaged

    ns = ("users", "u1", "memory")

    def item(namespace: tuple[str, ...], key: str, second: int) -> Item:
        moment = NOW + timedelta(seconds=second)
        value = MemoryEntry(key=key, value=key, created_at=moment, updated_at=moment)
        return Item(
            value=value.to_stored(),
            key=key,
            namespace=namespace,
            created_at=moment,
            updated_at=moment,
        )

    ctx = SimpleNamespace(entries_ns=ns, scope=ns[:2])
    own = [item(ns, "b", 2), item(ns, "a", 1)]
    below = item((*ns, "archive"), "c", 0)  # a search of a prefix finds it too
    for items in (own, [*own, below], [below]):
        entries, damaged = entries_and_damaged(ctx, items)  # type: ignore[arg-type]
        assert [e.key for e in entries] == [k for k in ("a", "b") if any(i.key == k for i in items)]
        assert damaged == []


class _Awkward:
    """A stored field whose comparison fails (an object an `InMemoryStore` may hold)."""

    def __eq__(self, other: object) -> bool:
        raise ValueError("cannot compare")

    __hash__ = object.__hash__


class _Text(str):
    """A `str` subclass: only the strict parse reads it."""


_raw_values = st.one_of(
    _stored_values(),
    _stored_values().map(lambda d: {**d, "status": _Awkward()}),
    _stored_values().map(lambda d: {**d, "value": _Text(d.get("value", "v"))}),
    st.sampled_from([{}, {"value": 1}, [], "not a dict"]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_raw_values, max_size=8))
def test_a_whole_read_gives_each_value_s_own_read(values: list[Any]) -> None:
    from types import MappingProxyType

    from langchain_contextchef.entry import entries_from_stored

    # Some values in a read-only mapping: not a dict, so never the one-pass read.
    values = [
        MappingProxyType(v) if isinstance(v, dict) and i % 3 == 2 else v
        for i, v in enumerate(values)
    ]
    pairs = [(f"k{i}", v) for i, v in enumerate(values)]
    expected: list[tuple[str, Any]] = []
    for key, value in pairs:
        try:
            entry = MemoryEntry.from_stored(key, value, share={})
        except (ValueError, TypeError, KeyError) as exc:
            expected.append(("error", (key, type(exc), str(exc))))
        except AttributeError:  # not a mapping at all: an error for the caller, as before
            with pytest.raises(AttributeError):
                entries_from_stored(pairs, {})
            return
        else:
            expected.append(("entry", tuple((n, getattr(entry, n)) for n in _SLOTS)))
    entries, damaged = entries_from_stored(pairs, {})
    assert [("entry", tuple((n, getattr(e, n)) for n in _SLOTS)) for e in entries] == [
        x for x in expected if x[0] == "entry"
    ]
    assert [("error", (k, type(exc), str(exc))) for k, exc in damaged] == [
        x for x in expected if x[0] == "error"
    ]
    assert all(type(e) is MemoryEntry for e in entries)


def test_a_scan_reports_each_damaged_item_and_keeps_the_rest(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from types import SimpleNamespace

    from langgraph.store.base import Item

    from langchain_contextchef.memory._context import entries_and_damaged

    ns = ("users", "u1", "memory")
    good = MemoryEntry(key="b", value="kept", created_at=NOW, updated_at=NOW).to_stored()
    awkward = {**good, "status": _Awkward()}
    items = [
        Item(value=v, key=k, namespace=ns, created_at=NOW, updated_at=NOW)
        for k, v in [("z", {"value": 3}), ("b", good), ("a", awkward), ("c", {**good})]
    ]
    ctx = SimpleNamespace(entries_ns=ns, scope=("users", "u1"))
    with caplog.at_level("WARNING"):
        entries, damaged = entries_and_damaged(ctx, items)  # type: ignore[arg-type]
    assert [e.key for e in entries] == ["b", "c"]
    assert damaged == ["a", "z"]
    warned = [r.getMessage() for r in caplog.records if "damaged memory entry" in r.getMessage()]
    assert [w.split("'")[1] for w in warned] == ["z", "a"]  # in the scan's order, as before


def test_an_entry_s_size_is_its_texts_sizes_and_the_overhead() -> None:
    import sys

    from langchain_contextchef.memory._cache import _ENTRY_OVERHEAD, _total_size, entry_size

    entries = [
        MemoryEntry(key=f"k{i}", value=v, created_at=NOW, updated_at=NOW, description=d)
        for i, (v, d) in enumerate([("ascii", None), ("é" * 7, ""), ("\U0001f600" * 3, "d")])
    ]
    for entry in entries:
        texts = [entry.value, entry.key] + (
            [entry.description] if entry.description is not None else []
        )
        assert entry_size(entry) == _ENTRY_OVERHEAD + sum(map(sys.getsizeof, texts))
    assert _total_size(entries) == sum(map(entry_size, entries))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 5), st.integers(0, 3)), max_size=12, unique_by=lambda p: p[0])
)
def test_a_scan_is_sorted_as_by_creation_time_then_key(made: list[tuple[int, int]]) -> None:
    from langchain_contextchef.memory._context import _creation_sorted

    # Few moments, so entries often share one and the key decides.
    entries = [
        MemoryEntry(
            key=f"k{n}",
            value="v",
            created_at=NOW + timedelta(seconds=s),
            updated_at=NOW + timedelta(seconds=s),
        )
        for n, s in made
    ]
    expected = sorted(entries, key=lambda e: (e.created_at, e.key))
    _creation_sorted(entries)
    assert [e.key for e in entries] == [e.key for e in expected]
