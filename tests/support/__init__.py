"""Shared fakes, helpers and suites of the test suite; test modules import from here only.

* `clocks`: `FakeClock`, the one hand-moved clock.
* `stores`: the server-less backends by name, `RecordingStore`, `dump`/`adump`.
* `postgres`: the session's PostgreSQL server (`CONTEXTCHEF_PG_URI` or a throwaway cluster).
* `events`: recorders for custom events, runs and veto hooks.
* `models`: a scripted chat model that records what it is sent.
* `graphs`: `tool_loop`, the model-and-`ToolNode` agent loop as a LangGraph graph.
* `entries`: `entry`, hand-made memory entries dated back from `T0`; `keys`.
* `embeddings`: `WordHashEmbeddings`, a deterministic embedding model.
* `gate_corpus`: the labelled write-gate corpus.
* `suites`: test classes that hold backend-sensitive assertions once; unit test modules
  subclass them on `InMemoryStore`, `tests/integration_tests/backends/` on the other backends.
"""
