"""Bearer-token auth for the LangGraph server: each token is one of your users.

The server runs `authenticate` on every request and puts the identity it returns in the run
(`langgraph_auth_user`); the tools act as that user only. Replace `TOKENS` with your own check
(a JWT, your session store, ...).
"""

from langgraph_sdk import Auth

TOKENS = {"token-alice": "alice", "token-dave": "dave"}

auth = Auth()


@auth.authenticate
async def authenticate(authorization: str | None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or token not in TOKENS:
        raise Auth.exceptions.HTTPException(status_code=401, detail="unknown token")
    return TOKENS[token]
