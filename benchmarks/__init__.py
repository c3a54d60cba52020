"""Benchmarks for langchain-contextchef: run them all with `python -m benchmarks`."""
