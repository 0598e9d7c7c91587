"""The wire layer: models, the operation table, and a request/response codec that does no I/O.

Nothing here knows about LangChain. ``langchain_toolrouter.client`` sends what this package builds.
"""
