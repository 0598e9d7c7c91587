"""What your own agent tests need: a scripted chat model, and the emulator as pytest fixtures.

`ScriptedChatModel` is a deterministic tool-calling chat model: given a plan of `Intent`s, it
searches for tools, connects accounts, runs tools and recovers from errors the way a model would,
with no key and no network.

The pytest fixtures come with the package (a plugin registered through the ``pytest11`` entry
point, so there is nothing to import or configure):

- ``toolrouter_emulator``: a running `EmulatorServer` on a free loopback port, new for each test
  and stopped after it. Options go to `EmulatorServer` through a marker:
  ``@pytest.mark.toolrouter_emulator(faults=[FaultRule(operation="search", status=503)])``.
- ``toolrouter``: a `ToolRouter` pointed at ``toolrouter_emulator``, closed after the test.
- ``toolrouter_env``: ``COMPOSIO_BASE_URL`` and ``COMPOSIO_API_KEY`` set to the emulator's for
  the test, so code that builds ``ToolRouter()`` from the environment talks to it; returns the
  server.

The fixtures need the ``emulator`` extra (``pip install "langchain-toolrouter[emulator]"``). The
plugin loads neither the library nor the emulator until a test asks for a fixture, so it costs
nothing where they are not used; ``-p no:langchain_toolrouter`` turns it off, and under
``PYTEST_DISABLE_PLUGIN_AUTOLOAD`` ``-p langchain_toolrouter`` turns it on. To share one emulator
across a module or a session, override ``toolrouter_emulator`` in your ``conftest.py`` with a
wider scope.
"""

from langchain_toolrouter.testing._scripted import Intent, ScriptedChatModel

__all__ = ["Intent", "ScriptedChatModel"]
