"""Who is calling: LangGraph Server's custom auth (`"auth": {"path": "./auth.py:auth"}`).

The server runs `authenticate` on every request and puts the user it returns in each run's
config (`config["configurable"]["langgraph_auth_user_id"]` and `["langgraph_auth_user"]`),
where the chef's scope `("users", "{langgraph_auth_user_id}")` finds it. A client cannot set
those keys itself, so a user reaches only their own memory.

The token table is a stand-in: check real tokens with your identity provider instead.
"""

from __future__ import annotations

import os

from langgraph_sdk import Auth

from langchain_contextchef.scope import encode_label

auth = Auth()

# "token:user,token:user"; the defaults serve the example and its test.
_TOKENS = dict(
    pair.split(":", 1)
    for pair in os.environ.get("CONTEXTCHEF_DEMO_TOKENS", "alice-token:alice,bob-token:bob").split(
        ","
    )
)


@auth.authenticate
async def authenticate(authorization: str | None) -> Auth.types.MinimalUserDict:
    """Map a bearer token to its user, or refuse the request."""
    scheme, _, token = (authorization or "").partition(" ")
    user = _TOKENS.get(token) if scheme.lower() == "bearer" else None
    if user is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail="Unknown bearer token.")
    return {"identity": user}


@auth.on.threads
async def own_threads_only(
    ctx: Auth.types.AuthContext, value: Auth.types.on.threads.value
) -> Auth.types.FilterType:
    """Threads (and the runs on them) belong to the user who made them."""
    metadata = value.setdefault("metadata", {})
    metadata["owner"] = ctx.user.identity
    return {"owner": ctx.user.identity}


@auth.on.store
async def own_memory_only(ctx: Auth.types.AuthContext, value: Auth.types.on.store.value) -> None:
    """The store API (`client.store.*`) reaches only the caller's own namespace."""
    own = ("users", encode_label(ctx.user.identity))
    namespace = tuple(value.get("namespace") or ())
    if namespace[: len(own)] != own:
        raise Auth.exceptions.HTTPException(
            status_code=403, detail=f"Only namespaces under {list(own)} are yours."
        )
