"""The public API is exactly what `__all__` curates, and every name in it resolves."""

import langchain_contextchef

EXPECTED_ALL = {
    "AuditRecord",
    "ConsentPolicy",
    "EncryptedStore",
    "Proposal",
    "PurgeSummary",
    "RetentionPolicy",
    "purge_store",
    "ByType",
    "CompileInput",
    "CompileMeta",
    "CompileRead",
    "CompiledPayload",
    "ContextBudget",
    "ContextBudgetExceeded",
    "ContextChef",
    "ContextChefError",
    "ContextChefMiddleware",
    "ContextChefPrompt",
    "CustomCheck",
    "FileSystemStore",
    "Finding",
    "ForgetReceipt",
    "GateDecision",
    "HistoryRecord",
    "Memory",
    "MemoryChangeEvent",
    "MemoryConfig",
    "MemoryEntry",
    "MemoryReflector",
    "MemorySelector",
    "MostImportant",
    "MostRecent",
    "Provenance",
    "ReflectionReport",
    "Relevant",
    "Rerank",
    "ScopeError",
    "SelectionContext",
    "ToolNotOwnedError",
    "Turns",
    "WriteCandidate",
    "WriteGate",
    "WriteResult",
    "export_kagent",
    "import_kagent",
    "recoverable_summarization",
    "reflection_node",
    "seed_policy",
    "__version__",
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
