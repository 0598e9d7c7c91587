"""The session layer's internals, above the tools they build and call.

* `runtime` / `loop_clients`: the clients and settings every session object receives.
* `faces`: flows of several requests, written once as an `async def`, run by either face.
* `connections`: when a call needs an account: links, the pause, the wait, the texts.
* `calls`: the one path of a tool call of a session.
* `builder`: LangChain tools from the schemas a session lists or finds.
* `sessions`: sessions made and found, for one user or for each user of a run.
* `presigned`: bytes to and from presigned storage URLs, never with the API key.

Below them sit the tools (`tools`, `custom_tools`) and the texts the model reads
(`_answers`); above them, the public faces (`session`, `files`, `search`, `toolkit`).
"""
