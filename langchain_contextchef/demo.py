"""The demo: an agent that remembers a user across two separate processes.

Run 1 tells the agent who the user is and how they like to work; the model saves that with
its memory tools into the embedded `./.context` store. Run 2 is a new process that asks for
some work: the prompt it compiles carries the `<memory>` block written by run 1, and the
answer follows it.

Without `--model`, the agent uses an offline scripted chat model (no API key, no network)
whose replies are computed from what it receives, so a run 2 without a run 1 visibly lacks
the preferences. With `--model provider:name` a real model is used through LangChain's
`init_chat_model`.

Example:
    ```python
    import io, tempfile
    from langchain_contextchef.demo import run_demo

    with tempfile.TemporaryDirectory() as folder:
        out = io.StringIO()
        assert run_demo(1, store=f"{folder}/.context", fresh=True, out=out) == 0
        assert "Created context://memory/user_name" in out.getvalue()
    ```
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, TextIO

from langchain.agents import create_agent
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableConfig

from langchain_contextchef._chat_models import ModelLoadError, load_chat_model
from langchain_contextchef._format import format_call, format_messages
from langchain_contextchef.chef import ContextChef
from langchain_contextchef.errors import ContextChefError
from langchain_contextchef.memory import MemoryConfig
from langchain_contextchef.middleware import ContextChefMiddleware
from langchain_contextchef.render import parse_memory_block
from langchain_contextchef.testing import ScriptedChatModel

__all__ = [
    "DEMO_SCOPE",
    "RUN_1_MESSAGE",
    "RUN_2_MESSAGE",
    "SYSTEM_PROMPT",
    "DemoError",
    "cli_command",
    "run_demo",
]

DEMO_SCOPE: tuple[str, ...] = ("demo",)
"""The namespace prefix the demo's memory lives under (`--scope demo` in the CLI)."""

SYSTEM_PROMPT = (
    "You are a coding assistant. When the user tells you something about themselves or how "
    "they work that will still matter in later conversations, save it with your memory "
    "tools. Follow what your memory says."
)
"""The system prompt of both runs."""

RUN_1_MESSAGE = (
    "I'm Sam, I write Python with type hints, keep answers short, and I never deploy on Fridays."
)
"""What the user says in run 1: preferences worth remembering."""

RUN_2_MESSAGE = "Write me a function to parse a date. When should I ship it?"
"""What the user asks in run 2: a request the preferences should shape."""

_MAX_STEPS = 25  # graph steps per run; a model looping on tools is stopped here
_COLOR_ENV = "CONTEXTCHEF_COLOR"  # set by the one-command form for its child processes


class DemoError(ContextChefError):
    """The demo cannot run as asked (bad model name, missing provider package, ...)."""


class _Printer:
    """Numbered, indented steps; bold headings only on a terminal."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.step_no = 0
        isatty = getattr(out, "isatty", lambda: False)()
        forced = os.environ.get(_COLOR_ENV) == "1"
        self.color = (isatty or forced) and "NO_COLOR" not in os.environ

    def _bold(self, text: str) -> str:
        return f"\033[1m{text}\033[0m" if self.color else text

    def banner(self, text: str) -> None:
        rule = "=" * min(max(len(text), 40), 78)
        print(self._bold(rule), file=self.out)
        print(self._bold(text), file=self.out)
        print(self._bold(rule), file=self.out)

    def line(self, text: str = "") -> None:
        print(text, file=self.out)

    def step(self, title: str, body: str = "") -> None:
        self.step_no += 1
        print(file=self.out)
        print(self._bold(f"[{self.step_no}] {title}"), file=self.out)
        if body:
            print(_indent(body), file=self.out)
        self.out.flush()


def _indent(text: str, pad: str = "    ") -> str:
    return "\n".join(pad + line if line else "" for line in text.splitlines())


def _load_model(spec: str | None) -> BaseChatModel:
    if spec is None:
        return ScriptedChatModel()
    try:
        return load_chat_model(spec)
    except ModelLoadError as exc:
        msg = f"--model PROVIDER:NAME: {exc}"
        raise DemoError(msg) from exc


def _memory_listing(chef: ContextChef) -> str:
    entries = chef.get_memory().list()
    if not entries:
        return "(empty)"
    return "\n".join(
        f"{e.key} = {e.value!r}" + (f"   ({e.description})" if e.description else "")
        for e in entries
    )


class _PromptRecorder(BaseCallbackHandler):
    """Keeps the exact message lists the chat model is called with."""

    def __init__(self) -> None:
        self.prompts: list[list[BaseMessage]] = []

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        **kwargs: Any,
    ) -> None:
        self.prompts.extend(list(batch) for batch in messages)


def _memory_keys_in(prompt: Sequence[BaseMessage]) -> list[str]:
    for message in prompt:
        if "<memory>" in message.text:
            try:
                return [entry.key for entry in parse_memory_block(message.text)]
            except ValueError:
                continue
    return []


def _agent_turn(
    chef: ContextChef,
    model: BaseChatModel,
    user_text: str,
    printer: _Printer,
    *,
    show_prompt: bool,
) -> str:
    """Run a `create_agent` agent with the chef's middleware; print every step as it happens."""
    agent = create_agent(
        model, system_prompt=SYSTEM_PROMPT, middleware=[ContextChefMiddleware(chef)]
    )
    recorder = _PromptRecorder()
    config: RunnableConfig = {"callbacks": [recorder], "recursion_limit": _MAX_STEPS}
    answer = ""
    shown = 0
    pending: list[ToolMessage] = []
    order: dict[str | None, int] = {}  # tool call id -> its place in the model's message

    def flush() -> None:
        # Parallel tool calls finish in any order: show their results in the calls' order.
        pending.sort(key=lambda m: order.get(m.tool_call_id, len(order)))
        printer.step("Tool results (written to the store)", "\n".join(m.text for m in pending))
        pending.clear()

    stream = agent.stream({"messages": [HumanMessage(user_text)]}, config, stream_mode="updates")
    for update in stream:
        for node_update in update.values():
            messages = node_update.get("messages", []) if isinstance(node_update, dict) else []
            if any(isinstance(m, AIMessage) for m in messages) and shown < len(recorder.prompts):
                # The first model call's prompt is the interesting one; later ones add tool turns.
                if shown == 0:
                    prompt = recorder.prompts[0]
                    if show_prompt:
                        title = "Prompt the model receives (compiled by ContextChef's middleware)"
                        printer.step(title, format_messages(prompt))
                    else:
                        keys = ", ".join(_memory_keys_in(prompt)) or "none (nothing stored yet)"
                        printer.step("ContextChef compiles the prompt", f"memory in it: {keys}")
                shown = len(recorder.prompts)
            # Tool calls run in parallel, one update each: show their results as one step.
            pending += [m for m in messages if isinstance(m, ToolMessage)]
            if pending and any(isinstance(m, AIMessage) for m in messages):
                flush()
            for message in messages:
                if not isinstance(message, AIMessage):
                    continue
                if message.tool_calls:
                    order = {c["id"]: i for i, c in enumerate(message.tool_calls)}
                    calls = "\n".join(format_call(c) for c in message.tool_calls)
                    printer.step("Model calls tools", calls)
                else:
                    answer = message.text
                    printer.step("Model answers", answer or "(no text)")
    if pending:
        flush()
    return answer


def _run_once(
    run: Literal[1, 2], *, store: str, fresh: bool, model: str | None, out: TextIO
) -> int:
    printer = _Printer(out)
    llm = _load_model(model)
    root = Path(store)
    if root.exists() and not root.is_dir():
        msg = f"--store {store} is a file; pass a folder (it is created if missing)."
        raise DemoError(msg)
    root.mkdir(parents=True, exist_ok=True)
    chef = ContextChef(store=root, memory=MemoryConfig(), scope=DEMO_SCOPE)
    memory = chef.get_memory()
    model_name = model or "scripted (offline, no API key)"
    printer.banner(f"contextchef demo - run {run} of 2 - process {os.getpid()}")
    printer.line(f"store: {store}   scope: {'/'.join(DEMO_SCOPE)}   model: {model_name}")
    if fresh:
        # A restore to an empty snapshot clears the scope's entries and its turn clock.
        memory.restore({"version": 1, "turn": 0, "entries": []})
        printer.line("--fresh: cleared the demo's memory, so this run starts empty.")
    before = memory.list()
    printer.line(
        f"memory in the store at start: {len(before)} entr{'y' if len(before) == 1 else 'ies'}"
    )

    user_text = RUN_1_MESSAGE if run == 1 else RUN_2_MESSAGE
    printer.step("User says" if run == 1 else "User asks (a new conversation)", user_text)
    _agent_turn(chef, llm, user_text, printer, show_prompt=run == 2)
    if run == 1:
        printer.step(f"Memory now in the store ({store})", _memory_listing(chef))
        printer.line()
        printer.line("This process ends here. Run 2 starts a new one that only has the store.")
    else:
        printer.line()
        scope = "/".join(DEMO_SCOPE)
        command = f"{cli_command()} list --store {shlex.quote(store)} --scope {scope}"
        printer.line(f"Inspect the memory: {command}")
    out.flush()
    return 0


def cli_command() -> str:
    """The shell command that runs this installation's `contextchef`, as a person would type it.

    `contextchef` when the one on `PATH` is this interpreter's; else the script beside the
    interpreter, relative to the working folder when it is inside it (`.venv/bin/contextchef`
    after `make demo`); else `python -m langchain_contextchef` with this interpreter.

    Returns:
        A command prefix, quoted for a POSIX shell.

    Example:
        ```python
        import shlex
        import subprocess
        from langchain_contextchef.demo import cli_command

        done = subprocess.run(
            [*shlex.split(cli_command()), "--help"], capture_output=True, text=True
        )
        assert done.returncode == 0 and "scopes" in done.stdout
        ```
    """
    # Not resolved: a virtual environment's interpreter is a symlink to the base Python, and
    # the scripts live beside the link.
    interpreter = Path(sys.executable)
    script = interpreter.parent / ("contextchef.exe" if os.name == "nt" else "contextchef")
    if script.is_file():
        found = shutil.which("contextchef")
        if found is not None and Path(found).resolve() == script.resolve():
            return "contextchef"
        return shlex.quote(_relative(script))
    return f"{shlex.quote(_relative(interpreter))} -m langchain_contextchef"


def _relative(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _run_both(*, store: str, fresh: bool, model: str | None, out: TextIO) -> int:
    env = dict(os.environ)
    if _Printer(out).color:
        env[_COLOR_ENV] = "1"
    for run in (1, 2):
        argv = [sys.executable, "-m", "langchain_contextchef", "demo", "--run", str(run)]
        argv += ["--store", store]
        if model is not None:
            argv += ["--model", model]
        if fresh and run == 1:
            argv.append("--fresh")
        # Each run is its own process: run 2 can only know what run 1 left in the store.
        done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
        out.write(done.stdout)
        out.flush()
        if done.returncode != 0:
            sys.stderr.write(done.stderr)
            return done.returncode
        if run == 1:
            out.write("\n")
    return 0


def run_demo(
    run: Literal[1, 2] | None = None,
    *,
    store: str = ".context",
    fresh: bool = False,
    model: str | None = None,
    out: TextIO | None = None,
) -> int:
    """Run the demo and print what happens, step by step.

    Args:
        run: `1` (the user states preferences; the model saves them), `2` (a new
            conversation that relies on them), or `None` to run both, each in its own process.
        store: The folder of the embedded store.
        fresh: Clear the demo's memory first (run 1 only, when both runs are run).
        model: `provider:name` of a real chat model; `None` uses the offline scripted model.
        out: Where to print; standard output by default.

    Returns:
        The exit code: 0 on success.

    Raises:
        DemoError: If the store path is a file, or the model cannot be loaded.

    Example:
        ```python
        import io, tempfile
        from langchain_contextchef.demo import run_demo

        with tempfile.TemporaryDirectory() as folder:
            out = io.StringIO()
            run_demo(1, store=folder, fresh=True, out=out)
            run_demo(2, store=folder, out=out)
            assert "-> date:" in out.getvalue()
        ```
    """
    stream = out if out is not None else sys.stdout
    if run is None:
        return _run_both(store=store, fresh=fresh, model=model, out=stream)
    if run not in (1, 2):
        msg = f"--run must be 1 or 2, got {run!r}."
        raise DemoError(msg)
    return _run_once(run, store=store, fresh=fresh, model=model, out=stream)
