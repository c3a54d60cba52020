"""Generate the example notebooks from the cell lists in this file, run them, and keep their outputs.

The `.ipynb` files are what users open (on a code host too, so they are committed with their
outputs); this script is how they are written, so they stay reviewable as Python and have
stable cell ids (the notebook tests look cells up by id). After editing a cell here:

    make notebooks                      # = python notebooks/_build.py --execute
    ruff check notebooks && ruff format --check notebooks

`--execute` builds every notebook (or the ones named), runs it top to bottom with a Jupyter
kernel on this interpreter in a temporary working folder, and writes it with its outputs.
Notebook 04 runs on PostgreSQL: a throwaway database on the server `CONTEXTCHEF_PG_URI` names,
or else on a throwaway cluster (`tests/support/postgres.py`); without either it stops with an
error. Provider API keys are removed from the kernel's environment, so the committed outputs
are always the offline run (the scripted model) and never carry a key. A notebook whose new
outputs match the committed ones in substance (`normalise`) is left untouched.

`--check` (no kernel) exits with status 1 when a committed notebook's cells differ from what
this script would write. `tests/integration_tests/test_notebooks.py` re-executes every
notebook and fails when the committed outputs are stale (`stale_cells`).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import os
import re
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbformat.notebooknode import NotebookNode

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


@dataclass(frozen=True)
class Cell:
    """One notebook cell: `kind` is "markdown" or "code"; `name` becomes its cell id."""

    kind: str
    source: str
    name: str | None = None


def md(text: str) -> Cell:
    """A markdown cell; the text is dedented and stripped."""
    return Cell("markdown", textwrap.dedent(text).strip())


def code(text: str, name: str | None = None) -> Cell:
    """A code cell; `name` gives it a stable id the notebook tests can look up."""
    return Cell("code", textwrap.dedent(text).strip(), name)


# ---- shared cells ------------------------------------------------------------------------------


def setup(extra: str = "") -> Cell:
    """The install instructions every notebook starts with."""
    package = (
        f'"path/to/langchain-contextchef[{extra}]"' if extra else "path/to/langchain-contextchef"
    )
    return md(
        f"""
        ## Setup

        The package is not on PyPI yet: install it from a checkout of the repository (README,
        "Install into your own project"). A provider package is needed only for the
        "Run it on a real model" section at the end.

        ```bash
        pip install {package}
        pip install langchain-anthropic   # or langchain-openai
        ```
        """
    )


PROVIDER_MODELS = {
    "ANTHROPIC_API_KEY": "anthropic:claude-sonnet-4-5",
    "OPENAI_API_KEY": "openai:gpt-4.1-mini",
}
"""Which model the real-model cell starts for which API key (the first key set wins)."""

PROVIDER_KEYS = tuple(PROVIDER_MODELS)
"""Removed from the kernel's environment when recording outputs (`offline_env`)."""


def real_model(intro: str, flow: str) -> list[Cell]:
    """The closing section: `flow` again, on a real chat model when a provider key is set.

    `flow` is code run with `real_model` bound to the chat model; without a key the cell only
    prints that it skipped, so the notebook still runs offline (and that is what its committed
    outputs show).
    """
    providers = "".join(f'    "{key}": "{model}",\n' for key, model in PROVIDER_MODELS.items())
    body = textwrap.indent(textwrap.dedent(flow).strip(), "    ")
    source = (
        "import os\n\n"
        "from langchain.chat_models import init_chat_model\n\n"
        "# The first provider whose API key is set; edit the model ids to try others.\n"
        f"PROVIDERS = {{\n{providers}}}\n"
        "model_id = next((model for key, model in PROVIDERS.items() if os.environ.get(key)), None)\n"
        "if model_id is None:\n"
        '    print("Skipped: set ANTHROPIC_API_KEY or OPENAI_API_KEY to run this on a real model.")\n'
        "else:\n"
        '    print(f"Running on {model_id}.")\n'
        "    real_model = init_chat_model(model_id)\n"
        f"{body}"
    )
    return [
        md(
            f"""
            ## Run it on a real model

            The sections above ran on the offline `ScriptedChatModel`. The cell below picks a
            real model from the API key in your environment (`ANTHROPIC_API_KEY` or
            `OPENAI_API_KEY`) through LangChain's `init_chat_model`, and skips when there is
            none. A real model words things its own way and decides for itself what is worth
            remembering, so its output differs from the scripted one.

            {" ".join(intro.split())}
            """
        ),
        Cell("code", source, "real-model"),
    ]


# ---- 01: quickstart ----------------------------------------------------------------------------


def quickstart() -> list[Cell]:
    return [
        md(
            """
            # Quickstart: persistent memory with ContextChef

            ## Overview

            `ContextChef` gives a chat model memory that outlives the conversation. Facts live
            in a LangGraph store; every prompt you build with the chef carries them in a
            `<memory>` block (no retrieval call), and the model writes them through two tools,
            `create_memory` and `modify_memory`, whose mistakes come back as readable
            `Error: ...` results instead of exceptions.

            This notebook walks through the core API on a `FileSystemStore` in a temporary
            folder: developer reads and writes, `compile`, tool dispatch, turn-based expiry,
            the two prompt placements, and an LCEL chain. It needs no API key: the model is
            an offline scripted one, and the last section runs the chain on a real model when
            a provider key is set.
            """
        ),
        setup(),
        md("`show` prints a message list compactly; it is used throughout."),
        code(
            r"""
            import shutil
            import tempfile
            from collections.abc import Sequence
            from pathlib import Path

            from langchain_core.language_models import BaseChatModel
            from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolCall
            from langgraph.store.memory import InMemoryStore

            from langchain_contextchef import ContextChef, FileSystemStore, MemoryConfig, Turns
            from langchain_contextchef.testing import ScriptedChatModel


            def show(messages: Sequence[BaseMessage]) -> None:
                for message in messages:
                    # Memory added to a user turn is a content block of its own: print each.
                    texts = [b["text"] for b in message.content_blocks if b["type"] == "text"]
                    print(f"--- {message.type}")
                    print("\n[next block]\n".join(texts))
            """
        ),
        md(
            """
            ## Instantiation

            A `FileSystemStore` keeps one JSON file per item under a root folder (in a project
            you would usually pass `"./.context"`, or give the path straight to
            `ContextChef(store=...)`). `MemoryConfig.allowed_keys` limits the keys the *model*
            may write; it also becomes the key enum of the `create_memory` tool schema.
            """
        ),
        code(
            r"""
            workdir = Path(tempfile.mkdtemp(prefix="contextchef-quickstart-"))
            store = FileSystemStore(workdir / ".context")
            chef = ContextChef(
                store=store,
                memory=MemoryConfig(allowed_keys=["language", "answer_length", "deploy_rule"]),
            )
            memory = chef.get_memory()
            print(chef)
            print([tool.name for tool in chef.tools])
            """
        ),
        md(
            """
            ## Invocation

            ### Developer writes and reads

            `Memory.set` and `Memory.get` are the developer's path: they bypass `allowed_keys`
            and the veto hook, so your own code can seed memory with anything (here a
            `persona`, which the model itself could not create).
            """
        ),
        code(
            r"""
            memory.set("persona", "A terse senior engineer", description="How to sound in replies.")
            print(memory.get("persona"))
            entry = memory.get_entry("persona")
            print(entry.description, "| update_count:", entry.update_count)
            """,
            name="set-get",
        ),
        md(
            """
            ### Compiling a prompt

            `compile` reads memory once, sweeps expired entries, advances the turn clock,
            renders the `<memory>` block and splices it into a copy of your messages. With the
            default placement, `after_system`, the instruction and the block form one system
            message right after your own system prompt. `payload.meta` says what happened.
            """
        ),
        code(
            r"""
            conversation = [
                SystemMessage("You are a coding assistant."),
                HumanMessage("Which language should the examples use?"),
            ]
            payload = chef.compile(conversation)
            show(payload.messages)
            print()
            print(payload.meta)
            """,
            name="compile",
        ),
        md(
            """
            `injected_keys` are the keys rendered into the prompt, `expired_keys` the ones this
            compile's sweep removed, and `turn` the number of compiles so far in this scope.
            `payload.tools` holds the memory tools to bind; they are the same objects on every
            compile, so tool schemas never break a provider's prompt cache.

            ### Handling the model's tool calls

            `handle_tool` runs one memory tool call. Given a LangChain `ToolCall` (what
            `AIMessage.tool_calls` holds) it returns a `ToolMessage` answering that call:
            """
        ),
        code(
            r"""
            call = ToolCall(
                name="create_memory",
                args={"key": "language", "value": "Python", "description": "The user's main language."},
                id="call_1",
            )
            result = chef.handle_tool(call)
            print(type(result).__name__, result.status, repr(result.text))
            """,
            name="handle-toolcall",
        ),
        md(
            """
            Given `{"name": ..., "arguments": ...}`, where the arguments are a JSON string (as
            raw provider payloads carry them) or a dict, it returns the result text:
            """
        ),
        code(
            r"""
            text = chef.handle_tool(
                {
                    "name": "modify_memory",
                    "arguments": '{"action": "update", "key": "language", "value": "Python 3.12"}',
                }
            )
            print(repr(text))
            print(memory.get("language"))
            """,
            name="handle-mapping",
        ),
        md(
            """
            A model mistake never raises. Writing a key outside `allowed_keys` returns an
            `Error: ...` text that lists the allowed keys, so the model can correct itself, and
            nothing is written:
            """
        ),
        code(
            r"""
            text = chef.handle_tool({"name": "create_memory", "arguments": {"key": "tone", "value": "dry"}})
            print(repr(text))
            print("tone stored:", memory.get("tone"))
            """,
            name="handle-error",
        ),
        md(
            """
            Tools that are not memory tools are yours to run: guard with `chef.owns_tool(name)`
            (calling `handle_tool` on them raises `ToolNotOwnedError`).
            """
        ),
        code(
            r"""
            print(chef.owns_tool("create_memory"), chef.owns_tool("search_web"))
            """
        ),
        md(
            """
            ### Expiry in turns

            One compile is one turn. An entry written with `ttl=Turns(2)` (or simply `ttl=2`)
            is injected in exactly the next two compiles and swept at the one after. Wall-clock
            expiry takes a `datetime.timedelta` or `{"ms": n}`; `ttl=None` never expires.
            """
        ),
        code(
            r"""
            memory.set("current_task", "Fixing the flaky date-parsing test", ttl=Turns(2))
            for _ in range(3):
                meta = chef.compile(conversation).meta
                print(f"turn {meta.turn}: injected={meta.injected_keys} expired={meta.expired_keys}")
            print("current_task now:", memory.get("current_task"))
            """,
            name="ttl",
        ),
        md(
            """
            ### The two placements side by side

            * `after_system` (default): instruction and memory data in one system message
              after your system prompt.
            * `before_history_tail`: only the stable instruction stays at the top; the memory
              data is added to the last user turn, as a content block of its own after the
              user's text. The top of the prompt then never changes
              when memory does, which is what you want with provider prompt caching.

            Both chefs below read the same store, so they show the same memory.
            """
        ),
        code(
            r"""
            tail_chef = ContextChef(
                store=store,
                memory=MemoryConfig(
                    allowed_keys=["language", "answer_length", "deploy_rule"],
                    memory_placement="before_history_tail",
                ),
            )
            history = [
                SystemMessage("You are a coding assistant."),
                HumanMessage("Hi!"),
                AIMessage("Hello. What are we building?"),
                HumanMessage("A date parser."),
            ]
            for name, which in [("after_system", chef), ("before_history_tail", tail_chef)]:
                print(f"===== {name}")
                show(which.compile(history).messages)
                print()
            """,
            name="placements",
        ),
        md(
            """
            ### An LCEL chain

            `chef.prompt` is the chef as a LangChain prompt runnable: it takes messages (or a
            `{"messages": [...]}` state) and returns the compiled prompt, traced as a prompt
            run. Pipe it into any chat model with the memory tools bound. `ask` sends one user
            message through such a chain and runs the memory tool calls in the reply.

            The model here is `ScriptedChatModel` from `langchain_contextchef.testing`: an
            offline model that turns stated preferences into `create_memory` calls and answers
            from the `<memory>` block. The last section runs the same chain on a real model.
            """
        ),
        code(
            r"""
            def ask(chef: ContextChef, model: BaseChatModel, text: str) -> None:
                chain = chef.prompt | model.bind_tools(chef.tools)
                reply = chain.invoke([HumanMessage(text)])
                for tool_call in reply.tool_calls:
                    print(tool_call["name"], tool_call["args"])
                    if chef.owns_tool(tool_call["name"]):
                        print("  ->", chef.handle_tool(tool_call).text)
                if reply.text:
                    print(reply.text)


            ask(chef, ScriptedChatModel(), "Keep answers short, and I never deploy on Fridays.")
            """,
            name="lcel-write",
        ),
        md("A later request, in a fresh conversation, is answered with what was stored:"),
        code(
            r"""
            ask(chef, ScriptedChatModel(), "When should I ship the release?")
            """,
            name="lcel-read",
        ),
        md(
            """
            ### What is on disk

            Memory entries live under the `memory` namespace and the turn clock (with other
            bookkeeping) under `memory_meta`, one JSON file per item. Any process that opens the same folder sees the
            same memory and continues the same turn count.
            """
        ),
        code(
            r"""
            root = workdir / ".context"
            for folder in ["memory", "memory_meta"]:
                for path in sorted((root / folder).glob("*.json")):
                    print(path.relative_to(root).as_posix())
            """,
            name="on-disk",
        ),
        *real_model(
            """
            The same two requests through `ask`, on a fresh memory in an `InMemoryStore`
            with the same allowed keys.
            """,
            """
            fresh = ContextChef(
                store=InMemoryStore(),
                memory=MemoryConfig(allowed_keys=["language", "answer_length", "deploy_rule"]),
            )
            ask(fresh, real_model, "Keep answers short, and I never deploy on Fridays.")
            ask(fresh, real_model, "When should I ship the release?")
            print({entry.key: entry.value for entry in fresh.get_memory().list()})
            """,
        ),
        md("## Clean up"),
        code(
            r"""
            store.close()
            shutil.rmtree(workdir)
            """
        ),
        md(
            """
            ## API reference

            * `ContextChef`: `compile`/`acompile`, `prompt`, `tools`, `owns_tool`,
              `handle_tool`/`ahandle_tool`, `get_memory` (`langchain_contextchef.chef`).
            * `Memory` and `MemoryConfig`: developer and model write paths, TTL, hooks, the
              selector (`langchain_contextchef.memory`); TTL spellings in
              `langchain_contextchef.ttl`.
            * `FileSystemStore` (`langchain_contextchef.store`); any other LangGraph
              `BaseStore` works as well.
            * `ContextChefPrompt`, `splice` and the placements (`langchain_contextchef.prompt`).
            * `ScriptedChatModel`, the offline model for tests (`langchain_contextchef.testing`).

            Every one of them has a docstring with a runnable example: `help(ContextChef)`.
            Next: `02_langgraph_agent.ipynb` puts the chef in a LangGraph graph.
            """
        ),
    ]


# ---- 02: LangGraph graph -----------------------------------------------------------------------


def langgraph_agent() -> list[Cell]:
    return [
        md(
            """
            # Memory in a LangGraph graph

            ## Overview

            The recommended way to use ContextChef in your own LangGraph graph:

            * a model node builds its prompt with `chef.prompt` and calls the model with
              `chef.tools` bound;
            * a `ToolNode(chef.tools)` runs the model's memory writes;
            * the graph is compiled with a store, `graph.compile(store=...)`. The chef is built
              without one, so the prompt step and the tools both use the graph's store.

            Memory is scoped per user with `scope=("users", "{user_id}")`; the user id comes
            from `config["configurable"]` (or the runtime context) at run time. We run two
            separate conversations for the same user: the second one knows what the first
            stored. The model is an offline scripted one, so no API key is needed; the last
            section runs the same graph on a real model when a provider key is set.
            """
        ),
        setup(),
        code(
            r"""
            import shutil
            import tempfile
            from pathlib import Path
            from typing import Any

            from langchain_core.language_models import BaseChatModel
            from langchain_core.messages import BaseMessage, HumanMessage
            from langchain_core.runnables import RunnableConfig
            from langgraph.graph import START, MessagesState, StateGraph
            from langgraph.graph.state import CompiledStateGraph
            from langgraph.prebuilt import ToolNode, tools_condition

            from langchain_contextchef import ContextChef, FileSystemStore, MemoryConfig
            from langchain_contextchef.testing import ScriptedChatModel
            """
        ),
        md(
            """
            ## Instantiation

            The store is a `FileSystemStore` in a temporary folder; `InMemoryStore`,
            `SqliteStore` or `PostgresStore` would do just as well. The memory block goes in
            the last user turn (`before_history_tail`), which keeps the top of the prompt
            stable for provider caching.
            """
        ),
        code(
            r"""
            workdir = Path(tempfile.mkdtemp(prefix="contextchef-graph-"))
            store = FileSystemStore(workdir / ".context")
            chef = ContextChef(
                scope=("users", "{user_id}"),
                memory=MemoryConfig(memory_placement="before_history_tail"),
            )
            """
        ),
        md(
            """
            ## Use in a graph

            `build_graph` wires a chat model into the graph. The model node compiles the prompt
            from the graph state and the run's config, then calls the model. It also keeps each
            prompt in `prompts_seen`, only so that this notebook can show what the model
            received. The compiled prompt is model input only: the node returns just the
            model's reply, so the graph state keeps the plain conversation. (For async graphs,
            use `await chef.prompt.ainvoke(...)` and `await model.ainvoke(...)`.)

            The model is `ScriptedChatModel` from `langchain_contextchef.testing`, an offline
            model that stores stated preferences with the memory tools and answers from the
            `<memory>` block.
            """
        ),
        code(
            r"""
            prompts_seen: list[list[BaseMessage]] = []


            def build_graph(model: BaseChatModel) -> CompiledStateGraph:
                bound = model.bind_tools(chef.tools)

                def call_model(state: MessagesState, config: RunnableConfig) -> dict[str, Any]:
                    prompt = chef.prompt.invoke(state, config)
                    prompts_seen.append(prompt.to_messages())
                    return {"messages": [bound.invoke(prompt, config)]}

                builder = StateGraph(MessagesState)
                builder.add_node("model", call_model)
                builder.add_node("tools", ToolNode(chef.tools))
                builder.add_edge(START, "model")
                builder.add_conditional_edges("model", tools_condition)
                builder.add_edge("tools", "model")
                return builder.compile(store=store)


            graph = build_graph(ScriptedChatModel())
            """
        ),
        md(
            """
            ## Invocation

            ### Conversation 1: the user states preferences

            The model answers with `create_memory` calls and the `ToolNode` runs them against
            the graph's store under `("users", "sam", "memory")`. The model's next call, still
            in this conversation, already finds the new entries in its `<memory>` block.

            `max_concurrency: 1` makes the `ToolNode` run the calls one after another (by
            default it runs them in parallel threads). Memory lists entries in the order they
            were created, so this keeps the order, and this notebook's output, the same on
            every run.
            """
        ),
        code(
            r"""
            sam: RunnableConfig = {"configurable": {"user_id": "sam"}, "max_concurrency": 1}
            statement = "I'm Sam, I write Python with type hints, and keep answers short."
            first = graph.invoke({"messages": [HumanMessage(statement)]}, sam)
            for message in first["messages"]:
                message.pretty_print()
            """,
            name="first-conversation",
        ),
        code(
            r"""
            for entry in chef.get_memory(sam, store=store).list():
                print(f"{entry.key} = {entry.value!r}")
            """,
            name="stored",
        ),
        md(
            """
            ### Conversation 2: a new conversation, same user

            A fresh message list, as in a new chat session or a new process. Nothing but the
            store connects it to the first one.
            """
        ),
        code(
            r"""
            second = graph.invoke({"messages": [HumanMessage("Write a function that parses a date.")]}, sam)
            print(second["messages"][-1].text)
            """,
            name="second-answer",
        ),
        md(
            """
            The prompt the model received in conversation 2: the user's request, followed by
            the `<memory>` block with what conversation 1 stored, as a content block of its own.
            """
        ),
        code(
            r"""
            last_turn = prompts_seen[-1][-1]
            print("\n[next block]\n".join(b["text"] for b in last_turn.content_blocks if b["type"] == "text"))
            """,
            name="second-prompt",
        ),
        md("The graph state, by contrast, holds only the conversation itself:"),
        code(
            r"""
            print(any("<memory>" in message.text for message in second["messages"]))
            """,
            name="state-clean",
        ),
        md(
            """
            Another user gets a memory of their own, which is empty so far, so the answer is
            generic:
            """
        ),
        code(
            r"""
            riley: RunnableConfig = {"configurable": {"user_id": "riley"}, "max_concurrency": 1}
            other = graph.invoke({"messages": [HumanMessage("Write a function that parses a date.")]}, riley)
            print(other["messages"][-1].text)
            """,
            name="other-user",
        ),
        md(
            """
            ## Human approval of memory writes

            Some facts should not be stored on the model's word alone. With
            `MemoryConfig(consent=ConsentPolicy(...))`, a model write the policy covers (here:
            any `preference`) is *proposed* instead of applied. Inside a graph compiled with a
            checkpointer, the tool call raises LangGraph's `interrupt()` carrying the proposal
            (key, old value, new value, type, who proposed it), and the graph pauses until you
            resume it with `Command(resume=...)`: `"approve"`, `{"type": "edit", "value":
            ...}` or `{"type": "reject"}`. Outside a graph (or without a checkpointer) the
            proposal waits in the store for `memory.approve_proposal(id)` /
            `memory.reject_proposal(id)` or `contextchef proposals`.

            The node below stands in for a model that decides to save a preference.
            """
        ),
        code(
            r"""
            from langchain_core.messages import AIMessage
            from langgraph.checkpoint.memory import InMemorySaver
            from langgraph.types import Command

            from langchain_contextchef import ConsentPolicy

            careful = ContextChef(
                scope=("users", "{user_id}"),
                memory=MemoryConfig(consent=ConsentPolicy(types=["preference"]), audit=True),
            )


            def propose(state: MessagesState) -> dict[str, Any]:
                # Saves the user's indentation preference, or corrects the saved one.
                if "Actually" in state["messages"][-1].text:
                    name, args = "modify_memory", {"action": "update", "key": "indent", "value": "tabs"}
                else:
                    name, args = "create_memory", {"key": "indent", "value": "tabs", "type": "preference"}
                call = {"name": name, "args": args, "id": "call-indent"}
                return {"messages": [AIMessage("", tool_calls=[call])]}


            approval = StateGraph(MessagesState)
            approval.add_node("model", propose)
            approval.add_node("tools", ToolNode(careful.tools))
            approval.add_edge(START, "model")
            approval.add_edge("model", "tools")
            approval_graph = approval.compile(store=store, checkpointer=InMemorySaver())

            thread = {"configurable": {"user_id": "sam", "thread_id": "approval-1"}}
            paused = approval_graph.invoke({"messages": [HumanMessage("I indent with tabs.")]}, thread)
            (asked,) = paused["__interrupt__"]
            print({k: asked.value[k] for k in ("action", "key", "old_value", "new_value", "type")})
            print("stored while waiting:", careful.get_memory(thread, store=store).get("indent"))
            """,
            name="consent-ask",
        ),
        md(
            """
            The person corrects the value before it is saved; the tool result tells the model
            what was stored. A rejection on another thread stores nothing, and the model is told
            so. The audit trail records who decided.
            """
        ),
        code(
            r"""
            done = approval_graph.invoke(Command(resume={"type": "edit", "value": "4 spaces"}), thread)
            print(done["messages"][-1].text)
            sam_memory = careful.get_memory(thread, store=store)
            print("stored:", sam_memory.get("indent"))

            other = {"configurable": {"user_id": "sam", "thread_id": "approval-2"}}
            approval_graph.invoke({"messages": [HumanMessage("Actually, tabs.")]}, other)
            refused = approval_graph.invoke(Command(resume={"type": "reject", "reason": "keep spaces"}), other)
            print(refused["messages"][-1].text)
            print("stored:", sam_memory.get("indent"))
            print([(r.action, r.actor) for r in sam_memory.audit("indent")])
            """,
            name="consent-resume",
        ),
        *real_model(
            """
            Both conversations again, through `build_graph`, for a new user (`sam-live`, so
            memory starts empty).
            """,
            """
            live: RunnableConfig = {"configurable": {"user_id": "sam-live"}, "max_concurrency": 1}
            live_graph = build_graph(real_model)
            live_graph.invoke({"messages": [HumanMessage(statement)]}, live)
            for entry in chef.get_memory(live, store=store).list():
                print(f"{entry.key} = {entry.value!r}")
            request = "Write a function that parses a date."
            answer = live_graph.invoke({"messages": [HumanMessage(request)]}, live)
            print(answer["messages"][-1].text)
            """,
        ),
        md("## Clean up"),
        code(
            r"""
            store.close()
            shutil.rmtree(workdir)
            """
        ),
        md(
            """
            ## API reference

            * `ContextChef.prompt` (`ContextChefPrompt` in `langchain_contextchef.prompt`):
              input is a message list or a `{"messages": [...], "dynamic_state": ...}` state.
            * `ContextChef.tools` and `ContextChef.get_memory(config, store=...)`
              (`langchain_contextchef.chef`).
            * Scope templates and their errors: `langchain_contextchef.scope`.
            * LangGraph: `StateGraph`, `ToolNode`, `tools_condition`, and stores in
              `langgraph.store`.
            * `ScriptedChatModel`, the offline model for tests (`langchain_contextchef.testing`).

            Next: `03_create_agent_middleware.ipynb` does the same with one line of middleware.
            """
        ),
    ]


# ---- 03: create_agent middleware ---------------------------------------------------------------


def create_agent_middleware() -> list[Cell]:
    return [
        md(
            """
            # Memory for `create_agent` with `ContextChefMiddleware`

            ## Overview

            `ContextChefMiddleware` adds memory to a LangChain 1.x agent built with
            `create_agent`: it registers the memory tools next to yours and, on every model
            call, compiles memory into the *request*. The agent's saved state never contains
            the `<memory>` block, so checkpoints, summaries and later turns see the plain
            conversation, while each model call sees memory as it is at that moment.

            This notebook runs offline with `ScriptedChatModel` from
            `langchain_contextchef.testing`; the last section runs the same agent on a real
            model when a provider key is set.
            """
        ),
        setup(),
        code(
            r"""
            from collections.abc import Callable
            from typing import Any

            from langchain.agents import create_agent
            from langchain.agents.middleware import ModelRequest, ModelResponse, wrap_model_call
            from langchain_core.language_models import BaseChatModel
            from langchain_core.messages import BaseMessage
            from langchain_core.runnables import RunnableConfig
            from langchain_core.tools import tool
            from langgraph.checkpoint.memory import InMemorySaver
            from langgraph.store.memory import InMemoryStore

            from langchain_contextchef import ContextChef, ContextChefMiddleware, MemoryConfig
            from langchain_contextchef.testing import ScriptedChatModel
            """
        ),
        md(
            """
            ## Instantiation

            The chef has no store of its own: the middleware's tools and prompt step use the
            agent's `store`. Memory is per user (`scope=("users", "{user_id}")`).

            `release_calendar` is an ordinary tool of the agent, there to show that memory
            tools sit alongside yours. `record_request` is a small middleware that keeps a
            copy of every model request, so we can see what the model received; being listed
            after `ContextChefMiddleware`, it runs inside it and sees the compiled request.
            `make_agent` builds the agent around a chat model.
            """
        ),
        code(
            r'''
            store = InMemoryStore()
            chef = ContextChef(
                scope=("users", "{user_id}"),
                memory=MemoryConfig(memory_placement="before_history_tail"),
            )


            @tool
            def release_calendar(week: int) -> str:
                """Say when the release train leaves in an ISO week."""
                return f"Week {week}: the release train leaves on Tuesday."


            requests_seen: list[dict[str, Any]] = []


            @wrap_model_call
            def record_request(
                request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
            ) -> ModelResponse:
                system = [request.system_message] if request.system_message is not None else []
                requests_seen.append(
                    {
                        "messages": [*system, *request.messages],
                        "tools": [getattr(t, "name", None) for t in request.tools],
                    }
                )
                return handler(request)


            def make_agent(model: BaseChatModel) -> Any:
                return create_agent(
                    model,
                    tools=[release_calendar],
                    system_prompt="You are a coding assistant.",
                    middleware=[ContextChefMiddleware(chef), record_request],
                    store=store,
                    checkpointer=InMemorySaver(),
                )


            agent = make_agent(ScriptedChatModel())
            '''
        ),
        md(
            """
            ## Invocation

            ### Conversation 1 (thread `t1`): preferences are stored

            `user_id` fills the scope; `thread_id` names the checkpointed conversation.
            `max_concurrency: 1` runs the model's tool calls one after another instead of in
            parallel threads, so memory's order (creation order) and this notebook's output
            are the same on every run.
            """
        ),
        code(
            r"""
            t1: RunnableConfig = {"configurable": {"user_id": "sam", "thread_id": "t1"}, "max_concurrency": 1}
            statement = "I'm Sam, I write Python with type hints, and keep answers short."
            result = agent.invoke({"messages": [("user", statement)]}, t1)
            for message in result["messages"]:
                message.pretty_print()
            print("tools offered to the model:", requests_seen[0]["tools"])
            """,
            name="first-conversation",
        ),
        md(
            """
            ### Conversation 2 (thread `t2`): memory in the request, not in the state
            """
        ),
        code(
            r"""
            t2: RunnableConfig = {"configurable": {"user_id": "sam", "thread_id": "t2"}, "max_concurrency": 1}
            result = agent.invoke({"messages": [("user", "Write a function that parses a date.")]}, t2)
            print(result["messages"][-1].text)
            """,
            name="second-answer",
        ),
        md(
            """
            What the model received on that call. The middleware merged the system prompt and
            the memory instruction into one system message of two blocks (the developer's
            prompt stays a block of its own); the memory data is in the last user turn.
            """
        ),
        code(
            r"""
            def show(messages: list[BaseMessage]) -> None:
                for message in messages:
                    texts = [block["text"] for block in message.content_blocks if block["type"] == "text"]
                    print(f"--- {message.type} ({len(texts)} text block(s))")
                    print("\n[next block]\n".join(texts))


            seen: list[BaseMessage] = requests_seen[-1]["messages"]
            show(seen)
            """,
            name="model-saw",
        ),
        md(
            """
            What the agent saved for thread `t2` (its checkpoint): the same conversation,
            without any `<memory>` block.
            """
        ),
        code(
            r"""
            saved = agent.get_state(t2).values["messages"]
            show(saved)
            print()
            print("model saw <memory>:", any("<memory>" in m.text for m in seen))
            print("state has <memory>:", any("<memory>" in m.text for m in saved))
            """,
            name="saved-state",
        ),
        md(
            """
            Each model call compiles once, so the scope's turn clock counts model calls (two
            in conversation 1, one in conversation 2):
            """
        ),
        code(
            r"""
            print(chef.get_memory(t2, store=store).turn)
            """,
            name="turns",
        ),
        md(
            """
            ## Prompt caching with Anthropic

            With `AnthropicPromptCachingMiddleware` (from `langchain-anthropic`), list it
            **before** `ContextChefMiddleware`, so the chef's middleware runs inside it. The
            caching middleware asks for a breakpoint on the last block of the request, which
            would be the volatile memory data; `ContextChefMiddleware` moves that breakpoint
            onto the last stable block before it. With `memory_placement="before_history_tail"`
            (as here) the only memory text in the cached prefix is the stable instruction, so
            a memory change never costs a cache miss. Listed the other way round, the caching
            middleware would tag the compiled request, memory included.
            """
        ),
        code(
            r"""
            from langchain_anthropic.middleware import AnthropicPromptCachingMiddleware

            middleware = [AnthropicPromptCachingMiddleware(), ContextChefMiddleware(chef)]
            print([type(m).__name__ for m in middleware])
            # create_agent(ChatAnthropic(model=...), tools=[...], middleware=middleware, store=store)
            """
        ),
        *real_model(
            """
            Both conversations again, through `make_agent`, for a new user (`sam-live`, so
            memory starts empty).
            """,
            """
            live_agent = make_agent(real_model)
            live_1 = {"configurable": {"user_id": "sam-live", "thread_id": "live-1"}, "max_concurrency": 1}
            live_2 = {"configurable": {"user_id": "sam-live", "thread_id": "live-2"}, "max_concurrency": 1}
            live_agent.invoke({"messages": [("user", statement)]}, live_1)
            for entry in chef.get_memory(live_2, store=store).list():
                print(f"{entry.key} = {entry.value!r}")
            request = {"messages": [("user", "Write a function that parses a date.")]}
            answer = live_agent.invoke(request, live_2)
            print(answer["messages"][-1].text)
            print("model saw <memory>:", any("<memory>" in m.text for m in requests_seen[-1]["messages"]))
            """,
        ),
        md(
            """
            ## API reference

            * `ContextChefMiddleware` (`langchain_contextchef.middleware`): tools plus per-call
              injection; dynamic state from the `dynamic_state` state key or a callable.
            * `ContextChef` and `MemoryConfig` (`langchain_contextchef.chef`,
              `langchain_contextchef.memory`).
            * LangChain: `create_agent` and `langchain.agents.middleware`.
            * `ScriptedChatModel`, the offline model for tests (`langchain_contextchef.testing`).

            Next: `04_multi_user_postgres.ipynb` keeps several users apart on PostgreSQL.
            """
        ),
    ]


# ---- 04: several users on PostgreSQL -----------------------------------------------------------


def multi_user_postgres() -> list[Cell]:
    return [
        md(
            """
            # Several users on PostgreSQL

            ## Overview

            One agent, many users: with `scope=("users", "{user_id}")` every read and write
            goes to that user's own namespace, `("users", <user_id>, "memory")`. Isolation
            happens in the store query itself, and a call without a `user_id` fails with
            `ScopeError` instead of falling back to a shared namespace.

            The store is LangGraph's `PostgresStore`, the path past one machine. Set
            `CONTEXTCHEF_PG_URI` (e.g. `postgresql://user:password@localhost:5432/db`) to use
            your server. Without it the notebook runs on an `InMemoryStore` and prints a
            warning saying so, and how to get a server (under `CI=true` a missing server is an
            error). The model is offline and scripted, so no API key is needed; the last
            section runs the same agent on a real model when a provider key is set.
            """
        ),
        setup("postgres"),
        code(
            r"""
            import contextlib
            import os
            from typing import Any

            from langchain.agents import create_agent
            from langchain_core.language_models import BaseChatModel
            from langchain_core.runnables import RunnableConfig
            from langgraph.store.base import BaseStore
            from langgraph.store.memory import InMemoryStore

            from langchain_contextchef import ContextChef, ContextChefMiddleware, ScopeError
            from langchain_contextchef.testing import ScriptedChatModel
            """
        ),
        md(
            """
            ## Instantiation

            `PostgresStore.from_conn_string` is a context manager; an `ExitStack` keeps it open
            across cells and closes it at the end. `store.setup()` creates or migrates the
            store's tables and is safe to run every time. The cell says in a banner which store
            this run uses.
            """
        ),
        code(
            r"""
            def banner(*lines: str) -> None:
                width = max(len(line) for line in lines)
                print("#" * (width + 4))
                for line in lines:
                    print(f"# {line.ljust(width)} #")
                print("#" * (width + 4))


            resources = contextlib.ExitStack()
            pg_uri = os.environ.get("CONTEXTCHEF_PG_URI")
            store: BaseStore
            if pg_uri:
                from langgraph.store.postgres import PostgresStore

                store = resources.enter_context(PostgresStore.from_conn_string(pg_uri))
                store.setup()
                banner(
                    "STORE: PostgresStore, on the PostgreSQL server that CONTEXTCHEF_PG_URI names.",
                    "Memory written below is kept in that database and outlives this kernel.",
                )
            elif os.environ.get("CI") == "true":
                raise RuntimeError(
                    "CI=true but CONTEXTCHEF_PG_URI is not set: this notebook must run against "
                    "PostgreSQL in CI. Start a server (from a checkout: python -m tests.support.postgres) "
                    "and export its URI."
                )
            else:
                store = InMemoryStore()
                banner(
                    "WARNING: CONTEXTCHEF_PG_URI is not set: this run uses an InMemoryStore, NOT PostgreSQL.",
                    "Everything below works the same, but memory lives in this kernel only.",
                    "To run on PostgreSQL, set CONTEXTCHEF_PG_URI=postgresql://user:password@host:5432/db",
                    "and restart the kernel. No server at hand? From a checkout of the repository,",
                    "    python -m tests.support.postgres",
                    "starts a throwaway local one (needs PostgreSQL's initdb and pg_ctl, e.g. from",
                    "apt install postgresql) and prints the export line for it; Ctrl-C stops it.",
                )
            """,
            name="store",
        ),
        md(
            """
            Demo users are `alice` and `bob`. To keep reruns on a persistent server
            reproducible, `forget` deletes everything stored under one user's scope; it runs
            now and again at the end.
            """
        ),
        code(
            r"""
            USERS = ["alice", "bob"]


            def forget(user_id: str) -> None:
                for namespace in store.list_namespaces(prefix=("users", user_id)):
                    for item in store.search(namespace, limit=1000):
                        store.delete(namespace, item.key)


            for user in USERS:
                forget(user)

            chef = ContextChef(scope=("users", "{user_id}"))


            def make_agent(model: BaseChatModel) -> Any:
                return create_agent(
                    model,
                    system_prompt="You are a coding assistant.",
                    middleware=[ContextChefMiddleware(chef)],
                    store=store,
                )


            def config_for(user_id: str) -> RunnableConfig:
                # One tool call at a time: memory keeps creation order, so reruns print the same.
                return {"configurable": {"user_id": user_id}, "max_concurrency": 1}


            agent = make_agent(ScriptedChatModel())
            """
        ),
        md(
            """
            ## Invocation

            ### The same key, two users

            Alice and Bob state their language; the model stores each under the same key,
            `language`, in each user's own namespace.
            """
        ),
        code(
            r"""
            statements = {"alice": "I write Python with type hints.", "bob": "I write TypeScript."}
            for user, text in statements.items():
                reply = agent.invoke({"messages": [("user", text)]}, config_for(user))
                print(f"{user}: {reply['messages'][-1].text}")
            """,
            name="write",
        ),
        code(
            r"""
            for user in USERS:
                entries = chef.get_memory(config_for(user), store=store).list()
                print(user, {entry.key: entry.value for entry in entries})
            print()
            for user in USERS:
                print(sorted(store.list_namespaces(prefix=("users", user))))
            """,
            name="isolated",
        ),
        md(
            """
            ### Each user sees only their own memory

            The same request gets a Python answer for Alice and a TypeScript one for Bob: each
            model call compiled only that user's namespace.
            """
        ),
        code(
            r"""
            request = {"messages": [("user", "Write a function that parses a date.")]}
            for user in USERS:
                reply = agent.invoke(request, config_for(user))
                print(f"===== {user}")
                print(reply["messages"][-1].text)
            """,
            name="answers",
        ),
        md(
            """
            Developer code addresses a user the same way, with `get_memory(config)`. A write
            for Bob leaves Alice untouched:
            """
        ),
        code(
            r"""
            bob_memory = chef.get_memory(config_for("bob"), store=store)
            bob_memory.set("deploy_rule", "never deploy on Fridays")
            alice_memory = chef.get_memory(config_for("alice"), store=store)
            print("bob:  ", bob_memory.get("deploy_rule"))
            print("alice:", alice_memory.get("deploy_rule"))
            """,
            name="developer",
        ),
        md(
            """
            ### A missing `user_id` fails closed

            Without a `user_id` there is no namespace to address, so nothing is read or written
            and `ScopeError` says what to pass:
            """
        ),
        code(
            r"""
            try:
                agent.invoke(request)
            except ScopeError as error:
                print(f"ScopeError: {error}")
            """,
            name="scope-error",
        ),
        *real_model(
            """
            Both steps again, through `make_agent`, for two new users (`alice-live` and
            `bob-live`, so memory starts empty); their memory is deleted at the end of the cell.
            """,
            """
            live_agent = make_agent(real_model)
            live_users = {"alice-live": statements["alice"], "bob-live": statements["bob"]}
            try:
                for user, text in live_users.items():
                    live_agent.invoke({"messages": [("user", text)]}, config_for(user))
                for user in live_users:
                    entries = chef.get_memory(config_for(user), store=store).list()
                    print(f"===== {user}", {entry.key: entry.value for entry in entries})
                    print(live_agent.invoke(request, config_for(user))["messages"][-1].text)
            finally:
                for user in live_users:
                    forget(user)
            """,
        ),
        md("## Clean up"),
        code(
            r"""
            for user in USERS:
                forget(user)
            resources.close()
            """
        ),
        md(
            """
            ## API reference

            * Scopes: `ContextChef(scope=...)` and `langchain_contextchef.scope`
              (`resolve_scope`, how values are encoded as namespace labels).
            * `ScopeError` (`langchain_contextchef.errors`).
            * LangGraph's `PostgresStore` and `AsyncPostgresStore` (`langgraph.store.postgres`,
              package `langgraph-checkpoint-postgres`); with the async store use the async APIs
              (`agent.ainvoke`, `chef.acompile`).
            * `ScriptedChatModel`, the offline model for tests (`langchain_contextchef.testing`).
            """
        ),
    ]


# ---- building ---------------------------------------------------------------------------------

# ---- 05: typed profiles and background reflection -----------------------------------------------


def profiles_and_background_reflection() -> list[Cell]:
    return [
        md(
            """
            # Typed profiles and reflection in the background

            ## Overview

            A **profile** is a pydantic document the model keeps up to date, declared with
            `MemoryConfig(profiles={"user": UserProfile})`. It is one memory entry (type
            `profile`, the JSON of the fields that are set), so history, audit, retention,
            consent and compare-and-set work as for any entry. Every edit the model makes is
            validated against the schema and each changed field passes the write gate on its
            own; a refused edit returns `Error: ...` and changes nothing.

            **Background reflection** runs a `MemoryReflector` once a conversation has been
            quiet for a while, instead of inside the user's turn: each new message cancels the
            pending run and schedules another, and a run reads only the messages no earlier
            run saw.

            Everything here runs offline on scripted models defined below; the last section
            runs a flow on a real model when a provider key is set.
            """
        ),
        setup(),
        code(
            r"""
            import json
            import tempfile
            from pathlib import Path
            from typing import Any

            from langchain.agents import create_agent
            from langchain_core.language_models.fake_chat_models import (
                FakeListChatModel,
                FakeMessagesListChatModel,
            )
            from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
            from langchain_core.runnables import Runnable, RunnableLambda
            from langgraph.checkpoint.memory import InMemorySaver
            from pydantic import BaseModel, Field

            from langchain_contextchef import ContextChef, ContextChefMiddleware, MemoryConfig
            from langchain_contextchef.reflection import (
                MemoryReflector,
                ReflectionCandidate,
                ReflectionResult,
                ReflectionScheduler,
                ServerReflectionScheduler,
                reflection_graph,
            )
            from langchain_contextchef.store import FileSystemStore
            """
        ),
        md(
            """
            ## Instantiation

            The profile's schema is any pydantic model. The store is a `FileSystemStore` in a
            temporary folder, so the profile survives a restart below.
            """
        ),
        code(
            r"""
            class UserProfile(BaseModel):
                name: str | None = None
                city: str | None = None
                age: int | None = Field(default=None, ge=0, le=150)
                languages: list[str] = []
                editor: str | None = None


            folder = Path(tempfile.mkdtemp(prefix="profiles-")) / ".context"
            config = MemoryConfig(profiles={"user": UserProfile}, audit=True)
            chef = ContextChef(store=FileSystemStore(folder), memory=config)
            memory = chef.get_memory()
            print(memory.profile("user"))
            """,
            name="declare",
        ),
        md(
            """
            ## The developer's side

            `set_profile` takes an instance of the model (or a dict, validated); `profile`
            returns one. Only the fields that are set are stored.
            """
        ),
        code(
            r"""
            memory.set_profile("user", UserProfile(name="Ada"))
            print(repr(memory.profile("user")))
            print(memory.get("user"))
            """,
            name="developer",
        ),
        md(
            """
            ## The model's side: three turns of a `create_agent` run

            `ScriptedAgentModel` replies from a fixed list, like a model that decided to make
            these tool calls: a field to merge, a field set by its address `user/<field>`
            (first with a value of the wrong type), and JSON-Patch-like operations (first one
            naming a field that is not set).
            """
        ),
        code(
            r"""
            class ScriptedAgentModel(FakeMessagesListChatModel):
                # Replies from `responses` in order, whatever tools it is given.
                def bind_tools(self, tools: Any, **kwargs: Any) -> Runnable[Any, Any]:
                    return self


            def update(key: str, value: str, call_id: str) -> AIMessage:
                args = {"action": "update", "key": key, "value": value}
                return AIMessage("", tool_calls=[{"name": "modify_memory", "args": args, "id": call_id}])


            script = [
                update("user", '{"city": "Oslo"}', "turn1"),
                AIMessage("Oslo, noted."),
                update("user/age", "thirty-six", "turn2-wrong-type"),
                update("user/age", "36", "turn2"),
                AIMessage("Noted."),
                update("user", '[{"op": "remove", "path": "/nickname"}]', "turn3-missing"),
                update("user", '[{"op": "add", "path": "/languages/-", "value": "Go"}]', "turn3"),
                AIMessage("Go it is."),
                AIMessage("You are Ada, 36, in Oslo, and you write Go."),
            ]
            agent_model = ScriptedAgentModel(responses=script)
            agent = create_agent(agent_model, middleware=[ContextChefMiddleware(chef)])
            messages: list[Any] = []
            for said in ["I live in Oslo.", "I'm 36.", "I write Go."]:
                messages = agent.invoke({"messages": [*messages, HumanMessage(said)]})["messages"]
            for message in messages:
                if isinstance(message, ToolMessage):
                    print(f"{message.tool_call_id}: {message.content}")
            """,
            name="agent-turns",
        ),
        md(
            """
            The valid edits became versions with their audit records; the refused ones left
            no trace.
            """
        ),
        code(
            r"""
            for record in memory.history("user"):
                print(record.version, record.status, record.entry.value)
            for audit in memory.audit("user"):
                print(audit.action, audit.actor, audit.version, audit.tool_call_id)
            """,
            name="history",
        ),
        md(
            """
            The next prompt shows the profile compactly, and the instruction lists its fields
            and types once (static text, so prompt caches keep it):
            """
        ),
        code(
            r"""
            messages = agent.invoke({"messages": [*messages, HumanMessage("Who am I?")]})["messages"]
            payload = chef.compile([HumanMessage("Who am I?")])
            prompt = "\n".join(m.text for m in payload.messages)
            print("\n".join(line for line in prompt.splitlines() if "rofile" in line))
            print(messages[-1].text)
            """,
            name="next-prompt",
        ),
        md(
            """
            A restart: a new store object on the same folder, as a new process would open it.
            """
        ),
        code(
            r"""
            restarted = ContextChef(store=FileSystemStore(folder), memory=config).get_memory()
            print(repr(restarted.profile("user")))
            """,
            name="restart",
        ),
        md(
            """
            ## Background reflection

            `ScriptedReflectionModel` stands in for the reflection model: it proposes the
            scripted candidates on every call and counts its calls. The scheduler gets a fake
            clock and `start=False`, so nothing runs until `run_due()` is called: the cells
            below decide when time passes.
            """
        ),
        code(
            r"""
            class ScriptedReflectionModel(FakeListChatModel):
                proposals: list[ReflectionCandidate] = []
                calls: int = 0

                def with_structured_output(self, schema: Any, **kwargs: Any) -> Runnable[Any, Any]:
                    def propose(prompt: Any) -> ReflectionResult:
                        self.calls += 1
                        return ReflectionResult(candidates=list(self.proposals))

                    return RunnableLambda(propose)


            class FakeClock:
                def __init__(self) -> None:
                    self.now = 0.0

                def __call__(self) -> float:
                    return self.now


            reflection_model = ScriptedReflectionModel(responses=[""])
            clock = FakeClock()
            reflector = MemoryReflector(reflection_model, chef.get_memory)
            scheduler = ReflectionScheduler(reflector, delay=30, clock=clock, start=False)

            conversation: list[Any] = []
            for i in range(10):  # ten messages, two seconds apart
                conversation.append(HumanMessage(f"message {i}", id=f"m{i}"))
                scheduler.notify("thread-1", conversation)
                clock.now += 2
                scheduler.run_due()
            print("runs while the conversation goes on:", reflection_model.calls)
            clock.now += 28  # 30 s after the last message
            print("due now:", scheduler.run_due(), "| reflection calls:", reflection_model.calls)
            """,
            name="debounce",
        ),
        code(
            r"""
            conversation.append(HumanMessage("I edit in vim.", id="m10"))
            scheduler.notify("thread-1", conversation)
            clock.now += 20
            conversation.append(HumanMessage("Mostly vim, yes.", id="m11"))
            scheduler.notify("thread-1", conversation)  # cancels the run due in 10 s
            clock.now += 10
            print("due 30 s after the first:", scheduler.run_due())
            reflection_model.proposals = [
                ReflectionCandidate(
                    key="user/editor", value="vim", type="preference",
                    description="the user's editor", evidence="I edit in vim", confidence=0.9,
                )
            ]  # fmt: skip
            clock.now += 20
            print("due 30 s after the second:", scheduler.run_due())
            report = scheduler.reports["thread-1"]
            print([(o.key, o.action) for o in report.outcomes])
            print(repr(memory.profile("user")))
            """,
            name="reschedule",
        ),
        md(
            """
            The reflector's writes take the model path: a proposal holding a secret (or an
            instruction to the assistant) is refused by the write gate, field by field.
            """
        ),
        code(
            r"""
            token = "ghp_" + "x7Kq2Lm9Pz4Rt8Wv1Yb6Nc3Hd5Jf0Sg2Ae7U"
            conversation.append(HumanMessage(f"My editor plugin token is {token}", id="m12"))
            reflection_model.proposals = [
                ReflectionCandidate(
                    key="user", value=json.dumps({"editor": f"vim (token {token})"}),
                    type="fact", description="editor", evidence=token, confidence=0.9,
                )
            ]  # fmt: skip
            scheduler.notify("thread-1", conversation)
            clock.now += 30
            scheduler.run_due()
            (outcome,) = scheduler.reports["thread-1"].outcomes
            print(outcome.action, "-", outcome.reason)
            print(repr(memory.profile("user")))
            """,
            name="gate",
        ),
        md(
            """
            ## In `create_agent`: one argument

            `ContextChefMiddleware(chef, reflector=..., reflect_when_quiet=60)` builds a
            `ReflectionScheduler` with a worker thread; passing a scheduler instead (here the
            one with the fake clock) sets its retries, shutdown and clock. The conversation is
            keyed by the run's `thread_id`.
            """
        ),
        code(
            r"""
            reflection_model.proposals = [
                ReflectionCandidate(
                    key="user", value='{"languages": ["Go", "Rust"]}', type="fact",
                    description="languages", evidence="I also write Rust", confidence=0.9,
                )
            ]  # fmt: skip
            chat = ScriptedAgentModel(responses=[AIMessage("Nice."), AIMessage("Rust too, great.")])
            middleware = ContextChefMiddleware(chef, reflector=reflector, reflect_when_quiet=scheduler)
            background_agent = create_agent(chat, middleware=[middleware], checkpointer=InMemorySaver())
            thread = {"configurable": {"thread_id": "conversation-7"}}
            background_agent.invoke({"messages": [HumanMessage("Hi!")]}, thread)
            background_agent.invoke({"messages": [HumanMessage("I also write Rust.")]}, thread)
            print("pending:", scheduler.pending())
            clock.now += 60
            print("ran:", scheduler.run_due())
            print(repr(memory.profile("user")))
            scheduler.shutdown()  # flushes whatever is still pending (on_shutdown="flush")
            """,
            name="middleware",
        ),
        md(
            """
            ## On LangGraph Server

            Deploy `reflection_graph(reflector)` (for example `"reflect": "my_app.py:graph"`
            in `langgraph.json`, with `memory=chef.get_memory` so each run writes to its
            user's scope). Its thread state remembers which messages were reflected on. After
            each turn, `ServerReflectionScheduler` asks the server for a delayed run on the
            conversation's thread; `multitask_strategy="rollback"` makes a new message replace
            the pending run. The graph runs in-process here, and a stand-in client shows the
            request the scheduler makes.
            """
        ),
        code(
            r"""
            graph = reflection_graph(reflector).copy(update={"checkpointer": InMemorySaver()})
            calls_before = reflection_model.calls
            reflection_model.proposals = []
            server_thread = {"configurable": {"thread_id": "server-thread"}}
            graph.invoke({"messages": conversation[:2]}, server_thread)
            graph.invoke({"messages": conversation[:2]}, server_thread)  # nothing new: no call
            print("reflection calls:", reflection_model.calls - calls_before)


            class StandInRuns:
                def create(self, thread_id: str, assistant_id: str, **kwargs: Any) -> dict[str, Any]:
                    return {"thread_id": thread_id, "assistant_id": assistant_id, **kwargs}


            class StandInClient:  # langgraph_sdk.get_sync_client(url=...) in a deployment
                runs = StandInRuns()


            server = ServerReflectionScheduler(StandInClient(), "reflect", delay=60)
            run = server.notify("server-thread", conversation[:1])
            print({k: v for k, v in run.items() if k != "input"})
            """,
            name="server",
        ),
        *real_model(
            """
            A fresh profile filled by a real model in a `create_agent` run, then a reflection
            on the same conversation by the same model.
            """,
            """
            live_chef = ContextChef(store=FileSystemStore(folder.parent / "live"), memory=config)
            live_agent = create_agent(real_model, middleware=[ContextChefMiddleware(live_chef)])
            said = "I'm Sam from Lisbon, I write Python and Go, and I edit in Helix."
            live = live_agent.invoke({"messages": [HumanMessage(said)]})
            live_memory = live_chef.get_memory()
            print("profile after the conversation:", repr(live_memory.profile("user")))
            live_report = MemoryReflector(real_model, live_memory).invoke(live["messages"])
            print("reflection:", [(o.key, o.action) for o in live_report.outcomes])
            print("profile after reflection:", repr(live_memory.profile("user")))
            """,
        ),
        md(
            """
            ## API reference

            * `MemoryConfig(profiles=...)`, `Memory.profile` / `set_profile` / `edit_profile`
              (`langchain_contextchef.memory`); the edit forms and schemas
              (`langchain_contextchef.profiles`).
            * `ReflectionScheduler`, `AsyncReflectionScheduler`, `reflection_graph`,
              `ServerReflectionScheduler` (`langchain_contextchef.reflection`).
            * `ContextChefMiddleware(..., reflect_when_quiet=...)`
              (`langchain_contextchef.middleware`).
            """
        ),
    ]


NOTEBOOKS: dict[str, Callable[[], list[Cell]]] = {
    "01_quickstart.ipynb": quickstart,
    "02_langgraph_agent.ipynb": langgraph_agent,
    "03_create_agent_middleware.ipynb": create_agent_middleware,
    "04_multi_user_postgres.ipynb": multi_user_postgres,
    "05_profiles_and_background_reflection.ipynb": profiles_and_background_reflection,
}

NEEDS_POSTGRES = frozenset({"04_multi_user_postgres.ipynb"})
"""Notebooks whose recorded outputs come from a run on PostgreSQL (`CONTEXTCHEF_PG_URI`)."""

METADATA = {
    "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
    "language_info": {"name": "python"},
}
"""Notebook metadata as committed; the kernel's own (its version, say) is not kept."""


def build(cells: list[Cell]) -> NotebookNode:
    """A notebook with no outputs and deterministic cell ids."""
    nb = nbformat.v4.new_notebook()
    nb.metadata = json.loads(json.dumps(METADATA))
    seen: set[str] = set()
    for index, cell in enumerate(cells):
        cell_id = cell.name or f"cell-{index:02d}"
        if cell_id in seen:
            raise ValueError(f"duplicate cell id {cell_id!r}")
        seen.add(cell_id)
        if cell.kind == "markdown":
            nb.cells.append(nbformat.v4.new_markdown_cell(cell.source, id=cell_id))
        else:
            nb.cells.append(nbformat.v4.new_code_cell(cell.source, id=cell_id))
    nbformat.validate(nb)
    return nb


def write_text(nb: NotebookNode) -> str:
    """The exact text a notebook is committed as."""
    return nbformat.writes(nb) + "\n"


def render_source(name: str) -> str:
    """The text of notebook `name` without outputs, as this script builds it."""
    return write_text(build(NOTEBOOKS[name]()))


def without_outputs(nb: NotebookNode) -> NotebookNode:
    """A copy of `nb` with every code cell's outputs and execution count removed."""
    bare = nbformat.from_dict(json.loads(json.dumps(nb)))
    for cell in bare.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    return bare


# ---- running ----------------------------------------------------------------------------------

KERNEL_NAME = "contextchef-notebooks"
CELL_TIMEOUT = 180


def offline_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The kernel's environment: `base` (default: this process's) without provider API keys."""
    env = dict(os.environ if base is None else base)
    for key in PROVIDER_KEYS:
        env.pop(key, None)
    return env


def execute(nb: NotebookNode, workdir: Path, env: Mapping[str, str]) -> NotebookNode:
    """Run `nb` top to bottom in place, in `workdir`, with environment `env`; returns it.

    The kernel is ipykernel on this interpreter (`sys.executable`), through a kernelspec in
    a temporary folder, so no globally registered kernel is used. Stream outputs of a cell are
    merged, no timing metadata is recorded, and the notebook's metadata is reset to
    `METADATA`. Raises `nbclient.exceptions.CellExecutionError` on the first failing cell.
    """
    import zmq
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient

    with tempfile.TemporaryDirectory(prefix="contextchef-kernels-") as kernels:
        spec_dir = Path(kernels) / KERNEL_NAME
        spec_dir.mkdir()
        spec = {
            "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "contextchef notebooks",
            "language": "python",
            "metadata": {"supported_encryption": ["curve"]},
        }
        (spec_dir / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")
        specs = KernelSpecManager(kernel_dirs=[kernels], ensure_native_kernel=False)
        options: dict[str, str] = {}
        if hasattr(AsyncKernelManager, "transport_encryption") and zmq.has("curve"):
            # Newer jupyter_client can encrypt the kernel's sockets; ipykernel warns otherwise.
            options["transport_encryption"] = "auto"
        km = AsyncKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=specs, **options)
        client = NotebookClient(
            nb,
            km=km,
            timeout=CELL_TIMEOUT,
            startup_timeout=120,
            record_timing=False,
            coalesce_streams=True,
            resources={"metadata": {"path": str(workdir)}},
        )
        try:
            client.execute(cleanup_kc=True, env=dict(env))
        finally:
            if km.has_kernel:
                client._cleanup_kernel()
    nb.metadata = json.loads(json.dumps(METADATA))
    return nb


# ---- comparing --------------------------------------------------------------------------------

_TMP = re.escape(tempfile.gettempdir().rstrip("/"))
_VOLATILE: list[tuple[re.Pattern[str], str]] = [
    (re.compile(_TMP + r"/[^\s'\",;)\]]*"), "<tmp>"),
    (re.compile(re.escape(str(ROOT))), "<repo>"),
    (re.compile(re.escape(str(Path.home())) + r"(?=/)"), "<home>"),
    (
        re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?"),
        "<time>",
    ),
    (
        re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I),
        "<uuid>",
    ),
    (re.compile(r"\b[0-9a-f]{32}\b"), "<uuid>"),
    (re.compile(r"\b0x[0-9a-f]{6,16}\b", re.I), "<address>"),
    (re.compile(r"\b(127\.0\.0\.1|localhost|\[::1\]):\d{2,5}\b"), r"\1:<port>"),
    (re.compile(r"\b\d+\.\d+\s?(ns|us|µs|ms|s|seconds)\b"), "<duration>"),
    (re.compile(r"[ \t]+$", re.M), ""),
]


def normalise(text: str) -> str:
    """`text` with what may differ between two runs of an unchanged notebook replaced.

    The notebooks print deterministic text (scripted model, fixed ids, tool calls run one at a
    time); this covers what a run cannot fix, in this order: paths under the temporary folder
    (`<tmp>`), this checkout (`<repo>`) and the home folder (`<home>`); date-times
    (`<time>`; a date alone is kept); UUIDs, dashed or as 32 hex digits (`<uuid>`); memory
    addresses such as `0x7f3a2c1b9e50` (`<address>`); loopback ports (`127.0.0.1:<port>`);
    decimal durations such as `0.25 s` (`<duration>`); trailing blanks and `\\r\\n` line ends.

    Example:
        >>> normalise("at 2026-01-05T10:00:00Z in /tmp/x/y, pid 0x7f3a2c1b9e50, took 1.5 ms")
        'at <time> in <tmp>, pid <address>, took <duration>'
    """
    text = text.replace("\r\n", "\n")
    for pattern, replacement in _VOLATILE:
        text = pattern.sub(replacement, text)
    return text


def comparable(nb: NotebookNode) -> dict[str, list[str]]:
    """Each code cell's outputs (by cell id) as the text two runs must agree on.

    Streams are merged per name; results and displays count by their `text/plain`; errors by
    name and message. Execution counts and metadata do not count. Every text is `normalise`d.
    """
    found: dict[str, list[str]] = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        streams: dict[str, str] = {}
        items: list[str] = []
        for out in cell.get("outputs", []):
            kind = out.get("output_type")
            if kind == "stream":
                if out["name"] not in streams:
                    items.append(f"stream:{out['name']}")
                    streams[out["name"]] = ""
                streams[out["name"]] += out.get("text", "")
            elif kind in ("execute_result", "display_data"):
                items.append(f"{kind}\n{out.get('data', {}).get('text/plain', '')}")
            elif kind == "error":
                items.append(f"error {out.get('ename')}: {out.get('evalue')}")
        found[cell.id] = [
            normalise(f"{item}\n{streams[item[7:]]}" if item.startswith("stream:") else item)
            for item in items
        ]
    return found


def stale_cells(committed: NotebookNode, fresh: NotebookNode) -> list[str]:
    """Where `fresh`'s outputs differ in substance from `committed`'s: one diff per cell."""
    old, new = comparable(committed), comparable(fresh)
    report = []
    for cell_id in list(dict.fromkeys([*old, *new])):
        if old.get(cell_id) != new.get(cell_id):
            before = "\n".join(old.get(cell_id, ["(no such cell)"])).splitlines()
            after = "\n".join(new.get(cell_id, ["(no such cell)"])).splitlines()
            diff = difflib.unified_diff(before, after, "committed", "fresh run", lineterm="")
            report.append(f"cell {cell_id}:\n" + "\n".join(diff))
    return report


_ABSOLUTE_PATH = re.compile(r"(?<![\w.:/<])/(?:tmp|var|home|root|work|Users|private|opt|srv|mnt)/")


def leaks(nb: NotebookNode, secrets: tuple[str, ...] = ()) -> list[str]:
    """What in `nb`'s outputs must not be committed: absolute paths, URIs with credentials, secrets.

    `secrets` are literal values (API keys, passwords) that must not appear anywhere.
    """
    found = []
    for cell in nb.cells:
        for out in cell.get("outputs", []) if cell.cell_type == "code" else []:
            text = (
                out.get("text", "") + json.dumps(out.get("data", {})) + str(out.get("evalue", ""))
            )
            for what, hit in [
                ("an absolute path", _ABSOLUTE_PATH.search(text)),
                ("this checkout's path", str(ROOT) in text),
                ("the home folder", str(Path.home()) + "/" in text),
                ("a database URI", "postgresql://" in text and "user:password@" not in text),
                *((f"secret #{i}", bool(s) and s in text) for i, s in enumerate(secrets)),
            ]:
                if hit:
                    found.append(f"cell {cell.id}: {what}")
    return found


# ---- regenerating -----------------------------------------------------------------------------


@contextlib.contextmanager
def _postgres_database() -> Iterator[str]:
    """A throwaway database on `CONTEXTCHEF_PG_URI`'s server or a throwaway cluster."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.support.postgres import create_database, drop_database, postgres_for_tests

    with postgres_for_tests() as server:
        if server.uri is None:
            raise SystemExit(
                f"Notebook 04's outputs are recorded on PostgreSQL, but there is {server.description}. "
                "Set CONTEXTCHEF_PG_URI to a server of yours, or install PostgreSQL's initdb and "
                "pg_ctl (Debian: apt install postgresql) for a throwaway cluster."
            )
        uri = create_database(server.uri, prefix="contextchef_nb")
        try:
            yield uri
        finally:
            drop_database(server.uri, uri)


def regenerate(name: str) -> bool:
    """Build, run and write notebook `name`; returns whether the file changed."""
    path = HERE / name
    nb = build(NOTEBOOKS[name]())
    env = offline_env()
    with contextlib.ExitStack() as stack:
        if name in NEEDS_POSTGRES:
            env["CONTEXTCHEF_PG_URI"] = stack.enter_context(_postgres_database())
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="contextchef-nb-")))
        execute(nb, work, env)
    secrets = tuple(os.environ.get(key, "") for key in PROVIDER_KEYS)
    if problems := leaks(nb, secrets):
        raise SystemExit(f"{name}: not written, its outputs hold " + "; ".join(problems))
    if path.exists():
        committed = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
        same_cells = write_text(without_outputs(committed)) == write_text(without_outputs(nb))
        if same_cells and not stale_cells(committed, nb):
            return False  # nothing changed in substance: keep the file byte for byte
    path.write_text(write_text(nb), encoding="utf-8")
    return True


def main(argv: list[str]) -> int:
    """`--execute`: build, run and write notebooks; `--check`: report stale cells (status 1)."""
    parser = argparse.ArgumentParser(
        prog="python notebooks/_build.py", description=__doc__.split("\n\n")[0]
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument(
        "--execute", action="store_true", help="build, run with a kernel, write with outputs"
    )
    mode.add_argument(
        "--check", action="store_true", help="exit 1 when committed cells differ (no kernel)"
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help="notebooks (default: all)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(NOTEBOOKS))
    if unknown:
        parser.error(f"unknown notebook(s) {unknown}; choose from {sorted(NOTEBOOKS)}")
    names = args.names or list(NOTEBOOKS)
    if args.check:
        stale = []
        for name in names:
            path = HERE / name
            text = path.read_text(encoding="utf-8") if path.exists() else ""
            bare = write_text(without_outputs(nbformat.reads(text, as_version=4))) if text else ""
            if bare != render_source(name):
                stale.append(name)
        if stale:
            print("Cells out of date (run make notebooks):", ", ".join(stale))
            return 1
        return 0
    for name in names:
        changed = regenerate(name)
        print(f"{name}: {'written' if changed else 'unchanged in substance, kept'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
