"""Reusable test classes, run on every backend without test modules importing each other.

Each suite asks for store fixtures by name (`store`, `local_store`, `astore`,
`local_store_factory`) and defines none: the conftest of the folder that subclasses it decides
which backends those are (`tests/unit_tests`: `InMemoryStore`; `tests/integration_tests/
backends`: SQLite, the file system and PostgreSQL).
"""
