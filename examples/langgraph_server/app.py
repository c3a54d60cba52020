"""Two graphs with per-user memory, served by LangGraph Server (`langgraph dev`).

* `agent`: `create_agent` with `ContextChefMiddleware`, the one-line way.
* `graph`: a hand-built `StateGraph`, the chef's prompt in the model node and its tools in a
  `ToolNode`.

Both use one `ContextChef` built without a store, so they use the store the server loads
(`store.py`), and scoped by the user the server authenticated (`auth.py`):
`("users", "{langgraph_auth_user_id}")`. Writes to `deploy_rule` wait for the user's consent:
the run pauses with an interrupt and resumes with `Command(resume="approve")` (or an edit or
a reject) sent through the API.
"""

from __future__ import annotations

import os
from typing import Any

from langchain.agents import create_agent
from langchain.chat_models import init_chat_model
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from langchain_contextchef import ContextChef, ContextChefMiddleware, MemoryConfig
from langchain_contextchef.consent import ConsentPolicy
from langchain_contextchef.testing import ScriptedChatModel

SYSTEM_PROMPT = "You are a helpful coding assistant. Remember what the user tells you."


def make_model() -> BaseChatModel:
    """The chat model `CONTEXTCHEF_MODEL` names; "scripted" is the offline one."""
    name = os.environ.get("CONTEXTCHEF_MODEL") or "anthropic:claude-sonnet-4-5"
    if name == "scripted":
        return ScriptedChatModel()
    return init_chat_model(name)  # the provider's package must be installed


chef = ContextChef(
    scope=("users", "{langgraph_auth_user_id}"),
    memory=MemoryConfig(consent=ConsentPolicy(keys=["deploy_rule"])),
)
model = make_model()

agent = create_agent(model, system_prompt=SYSTEM_PROMPT, middleware=[ContextChefMiddleware(chef)])


def _call_model(state: MessagesState) -> dict[str, Any]:
    chain = chef.prompt | model.bind_tools(chef.tools)
    messages: list[BaseMessage] = [SystemMessage(SYSTEM_PROMPT), *state["messages"]]
    return {"messages": [chain.invoke(messages)]}


def _route(state: MessagesState) -> str:
    last = state["messages"][-1]
    return "tools" if isinstance(last, AIMessage) and last.tool_calls else END


_builder = StateGraph(MessagesState)
_builder.add_node("model", _call_model)
_builder.add_node("tools", ToolNode(chef.tools))
_builder.add_edge(START, "model")
_builder.add_conditional_edges("model", _route, ["tools", END])
_builder.add_edge("tools", "model")
graph = _builder.compile()  # the server adds its checkpointer and store
