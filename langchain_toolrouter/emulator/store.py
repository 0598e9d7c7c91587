"""In-memory state of the emulator: sessions, users, connected accounts, link tokens.

State belongs to a *project* (one per API key) and, inside it, to a *user id*: a user's
connected accounts and toolkit data (repositories, mail, events, notes) survive across all of
that user's sessions for as long as the emulator runs. A session belongs to the project whose key
created it; other projects cannot see it. Ids are drawn from a seeded generator, so a scripted run
produces the same ids every time.
"""

from __future__ import annotations

import random
import string
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from langchain_toolrouter.emulator.catalog import Catalog
from langchain_toolrouter.wire.models import (
    CustomToolDefinition,
    CustomToolkitDefinition,
    SessionConfig,
)

__all__ = ["ConfigVersion", "ConnectedAccount", "SessionRecord", "Store", "UserState", "utc_now"]

_ID_CHARS = string.ascii_letters + string.digits + "-"


def utc_now() -> datetime:
    """The current UTC time (one place, so tests can reason about timestamps)."""
    return datetime.now(timezone.utc)


def iso(value: datetime) -> str:
    """RFC 3339 with a Z suffix, as the service writes timestamps."""
    return value.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


@dataclass
class ConnectedAccount:
    """A user's account for one toolkit; INITIATED until its link is opened, then ACTIVE."""

    id: str
    toolkit: str
    user_id: str
    status: str
    created_at: str
    auth_config_id: str
    auth_scheme: str
    link_token: str
    alias: str | None = None
    callback_url: str | None = None
    account_type: str = "PRIVATE"
    """PRIVATE, or SHARED: used only by sessions that pin it."""
    updated_at: str = ""
    """When the status last changed (`created_at` until then)."""


@dataclass
class UserState:
    """Everything one user of one project owns."""

    project: str
    user_id: str
    accounts: list[ConnectedAccount] = field(default_factory=list)
    toolkit_state: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class ConfigVersion:
    """One entry of a session's config history."""

    version: int
    config: SessionConfig
    created_at: str


@dataclass
class SessionRecord:
    """A tool router session as stored by the emulator."""

    id: str
    project: str
    user_id: str
    api_version: str
    config: SessionConfig
    created_at: str
    config_version: int = 1
    history: list[ConfigVersion] = field(default_factory=list)
    custom_tools: list[CustomToolDefinition] = field(default_factory=list)
    custom_toolkits: list[CustomToolkitDefinition] = field(default_factory=list)
    assistive_prompt: str = ""
    link_url_overwrite: str | None = None


class Store:
    """All emulator state, guarded by one lock (handlers are short and never await inside it)."""

    def __init__(self, catalog: Catalog, *, seed: int = 0) -> None:
        self.catalog = catalog
        self.sessions: dict[str, SessionRecord] = {}
        self.users: dict[tuple[str, str], UserState] = {}
        self.links: dict[str, tuple[str, str, str]] = {}
        self.approvals: OrderedDict[str, str] = OrderedDict()
        """Pending approval requests: request_state -> the digest of the call it is for."""
        self._random = random.Random(seed)  # noqa: S311 - reproducible ids, not secrets
        self.lock = threading.RLock()

    def new_id(self, prefix: str, length: int = 12) -> str:
        """A fresh id such as `trs_PTncEoK-r2ZE` (seeded, so reproducible)."""
        with self.lock:
            body = "".join(self._random.choice(_ID_CHARS) for _ in range(length))
        return f"{prefix}{body}"

    # -- sessions ------------------------------------------------------------------------------

    def add_session(self, record: SessionRecord) -> None:
        """Store a new session and its first config version."""
        with self.lock:
            record.history.append(ConfigVersion(1, record.config, record.created_at))
            self.sessions[record.id] = record

    def session(self, project: str, session_id: str) -> SessionRecord | None:
        """The session if it exists and belongs to `project`, else None (both answer 404)."""
        with self.lock:
            record = self.sessions.get(session_id)
        if record is None or record.project != project:
            return None
        return record

    def live(self, record: SessionRecord) -> bool:
        """Whether `record` is still stored (not deleted). Hold `lock` to act on the answer:
        a check and the change it allows are one step only inside one `with store.lock`."""
        with self.lock:
            return self.sessions.get(record.id) is record

    def delete_session(self, project: str, session_id: str) -> bool:
        """Remove a session of `project`; False when there was none."""
        with self.lock:
            record = self.sessions.get(session_id)
            if record is None or record.project != project:
                return False
            del self.sessions[session_id]
            return True

    def update_config(self, record: SessionRecord, config: SessionConfig) -> None:
        """Replace a session's config, bump its version and keep the old one in history."""
        with self.lock:
            record.config_version += 1
            record.config = config
            record.history.append(ConfigVersion(record.config_version, config, iso(utc_now())))

    # -- users and accounts --------------------------------------------------------------------

    def user(self, project: str, user_id: str) -> UserState:
        """The state of a user, created empty on first use."""
        with self.lock:
            key = (project, user_id)
            state = self.users.get(key)
            if state is None:
                state = self.users[key] = UserState(project, user_id)
            return state

    def toolkit_state(self, user: UserState, toolkit: str) -> dict[str, Any]:
        """A user's data for one catalog toolkit, initialised by the toolkit on first use."""
        with self.lock:
            state = user.toolkit_state.get(toolkit)
            if state is None:
                kit = self.catalog.toolkits[toolkit]
                state = user.toolkit_state[toolkit] = kit.init_state(user.user_id)
            return state

    def initiate_account(
        self,
        user: UserState,
        toolkit: str,
        *,
        auth_scheme: str,
        alias: str | None = None,
        callback_url: str | None = None,
        auth_config_id: str | None = None,
        account_type: str = "PRIVATE",
    ) -> ConnectedAccount:
        """A new INITIATED account and its link token (under the session's auth config, if
        it names one for the toolkit)."""
        account = ConnectedAccount(
            id=self.new_id("ca_"),
            toolkit=toolkit,
            user_id=user.user_id,
            status="INITIATED",
            created_at=iso(utc_now()),
            auth_config_id=auth_config_id or f"ac_emulator_{toolkit}",
            auth_scheme=auth_scheme,
            link_token=self.new_id("lt_", 16),
            alias=alias,
            callback_url=callback_url,
            account_type=account_type,
        )
        with self.lock:
            user.accounts.append(account)
            self.links[account.link_token] = (user.project, user.user_id, account.id)
        return account

    def complete_link(self, link_token: str) -> ConnectedAccount | None:
        """Mark the account behind a link token ACTIVE (idempotent); None for unknown tokens."""
        with self.lock:
            owner = self.links.get(link_token)
            if owner is None:
                return None
            project, user_id, account_id = owner
            user = self.users[(project, user_id)]
            for account in user.accounts:
                if account.id == account_id:
                    if account.status != "ACTIVE":
                        account.status = "ACTIVE"
                        account.updated_at = iso(utc_now())
                    return account
        return None

    def find_account(self, project: str, account_id: str) -> ConnectedAccount | None:
        """Any account of the project by id."""
        with self.lock:
            for (owner, _user), state in self.users.items():
                if owner != project:
                    continue
                for account in state.accounts:
                    if account.id == account_id:
                        return account
        return None
