"""MemoryEntry's stored form and the parse cache that compiles rely on."""

from __future__ import annotations

from datetime import datetime, timezone

from langchain_contextchef.entry import MemoryEntry, Provenance
from langchain_contextchef.render import parse_memory_block, render_memory_block

NOW = datetime(2026, 5, 25, tzinfo=timezone.utc)


def _stored(**changes: object) -> dict[str, object]:
    entry = MemoryEntry(
        key="k",
        value="v",
        created_at=NOW,
        updated_at=NOW,
        provenance=Provenance(written_by="model", tool_call_id="t1"),
    )
    data = entry.to_stored()
    data.update(changes)
    return data


def test_round_trip_keeps_every_field() -> None:
    entry = MemoryEntry(
        key="k",
        value="v",
        created_at=NOW,
        updated_at=NOW,
        description="d",
        update_count=3,
        importance=2.5,
        expires_at_turn=9,
        type="fact",
        status="quarantined",
        provenance=Provenance(written_by="reflection", confidence=0.9, source="m1"),
        supersedes=("old",),
    )
    assert MemoryEntry.from_stored("k", entry.to_stored()) == entry


def test_every_field_is_read_from_the_stored_value_each_time() -> None:
    # No process-wide parse cache: cached entries live per scope in the memory engine, which
    # follows the scope's stamp; a parse always reflects the stored value in full.
    assert MemoryEntry.from_stored("k", _stored()) == MemoryEntry.from_stored("k", _stored())
    assert MemoryEntry.from_stored("k", _stored(value="edited")).value == "edited"
    assert MemoryEntry.from_stored("k", _stored(description="new")).description == "new"
    prov = MemoryEntry.from_stored("k", _stored(provenance={"written_by": "import"}))
    assert prov.provenance is not None and prov.provenance.written_by == "import"
    assert MemoryEntry.from_stored("other", _stored()).key == "other"


def test_rendering_a_reused_entry_gives_the_same_text() -> None:
    entry = MemoryEntry.from_stored("k", _stored())
    first = render_memory_block([entry])
    assert render_memory_block([MemoryEntry.from_stored("k", _stored())]) == first
    edited = MemoryEntry.from_stored("k", _stored(value="edited"))
    assert parse_memory_block(render_memory_block([edited]))[0].value == "edited"


def test_a_parsed_entry_is_a_frozen_slotted_entry_like_a_constructed_one() -> None:
    import dataclasses

    import pytest

    stored = _stored(description="d", supersedes=["old"], expires_at_turn=4, type="fact")
    parsed = MemoryEntry.from_stored("k", stored)
    built = MemoryEntry(**{f.name: getattr(parsed, f.name) for f in dataclasses.fields(parsed)})
    assert type(parsed) is MemoryEntry and parsed == built and hash(parsed) == hash(built)
    assert not hasattr(parsed, "__dict__")  # slots: a cached scope holds thousands of these
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.value = "changed"  # type: ignore[misc]
    assert parsed.evolve(value="w").value == "w" and parsed.value == "v"
    assert parsed.to_stored() == MemoryEntry.from_stored("k", parsed.to_stored()).to_stored()


def test_a_subclass_parses_through_its_own_constructor() -> None:
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class Tagged(MemoryEntry):
        tag: str = "none"

    parsed = Tagged.from_stored("k", _stored())
    assert type(parsed) is Tagged and parsed.tag == "none" and parsed.value == "v"
