"""The public API is exactly what `__all__` curates, and every name in it resolves."""

import langchain_contextchef

EXPECTED_ALL = {
    "ByType",
    "CompiledPayload",
    "ConsentPolicy",
    "ContextBudget",
    "ContextBudgetExceeded",
    "ContextChef",
    "ContextChefError",
    "ContextChefMiddleware",
    "ContextChefPrompt",
    "EncryptedStore",
    "FileSystemStore",
    "Memory",
    "MemoryConfig",
    "MemoryEntry",
    "MemoryReflector",
    "MostImportant",
    "MostRecent",
    "Provenance",
    "Relevant",
    "Rerank",
    "RetentionPolicy",
    "ScopeError",
    "Turns",
    "WriteGate",
    "WriteResult",
    "__version__",
    "purge_store",
    "recoverable_summarization",
    "reflection_node",
}


def test_all_is_curated() -> None:
    assert set(langchain_contextchef.__all__) == EXPECTED_ALL
    assert len(langchain_contextchef.__all__) == len(EXPECTED_ALL), "duplicates in __all__"


def test_every_exported_name_resolves() -> None:
    for name in langchain_contextchef.__all__:
        assert getattr(langchain_contextchef, name) is not None, name


def test_no_unlisted_public_class_leaks() -> None:
    public = {
        name
        for name, value in vars(langchain_contextchef).items()
        if not name.startswith("_") and isinstance(value, type)
    }
    assert public <= EXPECTED_ALL, public - EXPECTED_ALL


def test_the_rest_is_importable_from_its_module() -> None:
    from langchain_contextchef.audit import AuditRecord
    from langchain_contextchef.consent import Proposal
    from langchain_contextchef.entry import HistoryRecord, MemoryChangeEvent
    from langchain_contextchef.gate import CustomCheck, Finding, GateDecision, seed_policy
    from langchain_contextchef.interop import export_kagent, import_kagent
    from langchain_contextchef.memory import CompileRead, ForgetReceipt, PurgeSummary
    from langchain_contextchef.selectors import MemorySelector, SelectionContext

    for name in ("AuditRecord", "Proposal", "HistoryRecord", "GateDecision", "CompileRead"):
        assert name not in langchain_contextchef.__all__
    assert callable(seed_policy) and callable(export_kagent) and callable(import_kagent)
    assert all(
        isinstance(cls, type)
        for cls in (
            AuditRecord, Proposal, HistoryRecord, MemoryChangeEvent, CustomCheck, Finding,
            CompileRead, ForgetReceipt, PurgeSummary, MemorySelector, SelectionContext, GateDecision,
        )
    )  # fmt: skip
