"""The session layer's internals: what sessions, tools, files and search share.

* `runtime`: the clients and settings every session object receives (never the router).
* `calls`: the one path of a tool call (local custom tool, split multi-execute, the service)
  and the answers the model reads when it fails.
* `flows`: multi-step flows written once as generators of effects, with a sync and an async
  driver (as `wire/` builds and parses single requests without I/O).
* The rest are pure helpers: multi-execute planning, custom tool registry and signatures,
  session-create arguments, presigned transfers, result rendering.
"""
