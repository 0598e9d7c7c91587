"""A GitHub-like toolkit: repositories, issues and comments, per user, in memory.

Every user starts with one repository, `<login>/hello-world`, holding one open issue, so list and
read tools have something to show before anything is created.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from langchain_toolrouter.emulator.definitions import (
    ProxyRoute,
    ToolContext,
    ToolFailure,
    Toolkit,
    tool_factory,
)

__all__ = ["TOOLKIT"]

SLUG = "github"
_NAME_PATTERN = r"^[A-Za-z0-9_.-]+$"


def _login(user_id: str) -> str:
    login = re.sub(r"[^A-Za-z0-9-]+", "-", user_id.split("@", 1)[0]).strip("-").lower()
    return login or "user"


def _init_state(user_id: str) -> dict[str, Any]:
    login = _login(user_id)
    full_name = f"{login}/hello-world"
    return {
        "login": login,
        "repos": {
            full_name: {
                "id": 1,
                "name": "hello-world",
                "full_name": full_name,
                "owner": {"login": login},
                "description": "My first repository",
                "private": False,
                "visibility": "public",
                "default_branch": "main",
                "html_url": f"https://github.example/{full_name}",
                "created_at": "2026-01-01T00:00:00Z",
                "open_issues_count": 1,
            }
        },
        "issues": {
            full_name: [
                {
                    "id": 1,
                    "number": 1,
                    "title": "Welcome to hello-world",
                    "body": "This issue was created with the repository.",
                    "state": "open",
                    "state_reason": None,
                    "labels": [{"name": "good first issue"}],
                    "assignees": [],
                    "user": {"login": login},
                    "comments": 0,
                    "html_url": f"https://github.example/{full_name}/issues/1",
                    "created_at": "2026-01-01T00:00:00Z",
                    "updated_at": "2026-01-01T00:00:00Z",
                }
            ]
        },
        "comments": {},
        "_counters": {"repo": 1, "issue": 1},
    }


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _RepoRef(_Closed):
    owner: str = Field(
        min_length=1,
        description="The account owner of the repository (case-insensitive).",
        examples=["octocat"],
    )
    repo: str = Field(
        min_length=1,
        pattern=_NAME_PATTERN,
        description="The name of the repository without the .git extension (case-insensitive).",
        examples=["hello-world"],
    )


class _Paging(_Closed):
    per_page: int = Field(default=30, ge=1, le=100, description="Results per page (max 100).")
    page: int = Field(default=1, ge=1, description="Page number of the results to fetch.")


class CreateRepoArgs(_Closed):
    name: str = Field(
        min_length=1,
        max_length=100,
        pattern=_NAME_PATTERN,
        description="The name of the repository.",
        examples=["my-new-repo"],
    )
    description: str | None = Field(
        default=None, description="A short description of the repository."
    )
    private: bool = Field(default=False, description="Whether the repository is private.")
    auto_init: bool = Field(
        default=False, description="Create an initial commit with an empty README."
    )


class ListReposArgs(_Paging):
    sort: Literal["created", "updated", "full_name"] = Field(
        default="full_name", description="The property to sort the results by."
    )
    direction: Literal["asc", "desc"] = Field(default="asc", description="The order to sort by.")


class CreateIssueArgs(_RepoRef):
    title: str = Field(min_length=1, description="The title of the issue.")
    body: str | None = Field(default=None, description="The contents of the issue (Markdown).")
    labels: list[str] = Field(default=[], description="Labels to associate with this issue.")
    assignees: list[str] = Field(default=[], description="Logins of users to assign.")


class ListIssuesArgs(_RepoRef, _Paging):
    state: Literal["open", "closed", "all"] = Field(
        default="open", description="Indicates the state of the issues to return."
    )
    labels: str | None = Field(
        default=None,
        description="A list of comma separated label names; issues must carry all of them.",
        examples=["bug,ui,@high"],
    )


class IssueRefArgs(_RepoRef):
    issue_number: int = Field(ge=1, description="The number that identifies the issue.")


class UpdateIssueArgs(IssueRefArgs):
    title: str | None = Field(default=None, min_length=1, description="The new title of the issue.")
    body: str | None = Field(default=None, description="The new contents of the issue.")
    state: Literal["open", "closed"] | None = Field(
        default=None, description="The open or closed state."
    )
    state_reason: Literal["completed", "not_planned", "reopened"] | None = Field(
        default=None, description="The reason for the state change; ignored unless state changes."
    )
    labels: list[str] | None = Field(default=None, description="Replace all labels with these.")


class CreateCommentArgs(IssueRefArgs):
    body: str = Field(min_length=1, description="The contents of the comment.")


class ListCommentsArgs(IssueRefArgs, _Paging):
    pass


def _now(ctx: ToolContext) -> str:
    return ctx.now.isoformat().replace("+00:00", "Z")


def _repo(ctx: ToolContext, owner: str, repo: str) -> dict[str, Any]:
    repos: dict[str, dict[str, Any]] = ctx.state["repos"]
    for full_name, record in repos.items():
        if full_name.lower() == f"{owner}/{repo}".lower():
            return record
    known = ", ".join(sorted(repos)) or "none"
    raise ToolFailure(
        f"Repository {owner}/{repo} was not found. Repositories of this account: {known}.",
        status=404,
    )


def _issue(ctx: ToolContext, args: IssueRefArgs) -> dict[str, Any]:
    repo = _repo(ctx, args.owner, args.repo)
    for issue in ctx.state["issues"].get(repo["full_name"], []):
        if issue["number"] == args.issue_number:
            result: dict[str, Any] = issue
            return result
    raise ToolFailure(
        f"Issue #{args.issue_number} was not found in {repo['full_name']}; list the repository's "
        "issues with GITHUB_LIST_REPOSITORY_ISSUES.",
        status=404,
    )


def _page(items: list[dict[str, Any]], args: _Paging) -> list[dict[str, Any]]:
    start = (args.page - 1) * args.per_page
    return items[start : start + args.per_page]


def create_repo(ctx: ToolContext, args: CreateRepoArgs) -> dict[str, Any]:
    login = ctx.state["login"]
    full_name = f"{login}/{args.name}"
    if any(name.lower() == full_name.lower() for name in ctx.state["repos"]):
        raise ToolFailure(
            f"Repository creation failed: name already exists on this account ({full_name}).",
            status=422,
        )
    record = {
        "id": ctx.next_id("repo"),
        "name": args.name,
        "full_name": full_name,
        "owner": {"login": login},
        "description": args.description,
        "private": args.private,
        "visibility": "private" if args.private else "public",
        "default_branch": "main",
        "html_url": f"https://github.example/{full_name}",
        "created_at": _now(ctx),
        "open_issues_count": 0,
    }
    ctx.state["repos"][full_name] = record
    ctx.state["issues"][full_name] = []
    return dict(record)


def list_repos(ctx: ToolContext, args: ListReposArgs) -> dict[str, Any]:
    repos = list(ctx.state["repos"].values())
    key = {"created": "created_at", "updated": "created_at", "full_name": "full_name"}[args.sort]
    repos.sort(key=lambda r: r[key], reverse=args.direction == "desc")
    return {"repositories": _page(repos, args), "total_count": len(repos)}


def create_issue(ctx: ToolContext, args: CreateIssueArgs) -> dict[str, Any]:
    repo = _repo(ctx, args.owner, args.repo)
    issues = ctx.state["issues"].setdefault(repo["full_name"], [])
    number = len(issues) + 1
    issue = {
        "id": ctx.next_id("issue"),
        "number": number,
        "title": args.title,
        "body": args.body,
        "state": "open",
        "state_reason": None,
        "labels": [{"name": label} for label in args.labels],
        "assignees": [{"login": login} for login in args.assignees],
        "user": {"login": ctx.state["login"]},
        "comments": 0,
        "html_url": f"{repo['html_url']}/issues/{number}",
        "created_at": _now(ctx),
        "updated_at": _now(ctx),
    }
    issues.append(issue)
    repo["open_issues_count"] += 1
    return dict(issue)


def list_issues(ctx: ToolContext, args: ListIssuesArgs) -> dict[str, Any]:
    repo = _repo(ctx, args.owner, args.repo)
    wanted = {label.strip() for label in (args.labels or "").split(",") if label.strip()}
    issues = [
        issue
        for issue in ctx.state["issues"].get(repo["full_name"], [])
        if (args.state == "all" or issue["state"] == args.state)
        and wanted <= {label["name"] for label in issue["labels"]}
    ]
    return {"issues": _page(issues, args), "total_count": len(issues)}


def get_issue(ctx: ToolContext, args: IssueRefArgs) -> dict[str, Any]:
    return dict(_issue(ctx, args))


def update_issue(ctx: ToolContext, args: UpdateIssueArgs) -> dict[str, Any]:
    issue = _issue(ctx, args)
    repo = _repo(ctx, args.owner, args.repo)
    if args.title is not None:
        issue["title"] = args.title
    if args.body is not None:
        issue["body"] = args.body
    if args.labels is not None:
        issue["labels"] = [{"name": label} for label in args.labels]
    if args.state is not None and args.state != issue["state"]:
        issue["state"] = args.state
        repo["open_issues_count"] += 1 if args.state == "open" else -1
        default_reason = "completed" if args.state == "closed" else "reopened"
        issue["state_reason"] = args.state_reason or default_reason
    issue["updated_at"] = _now(ctx)
    return dict(issue)


def create_comment(ctx: ToolContext, args: CreateCommentArgs) -> dict[str, Any]:
    issue = _issue(ctx, args)
    key = f"{issue['html_url']}"
    comment = {
        "id": ctx.next_id("comment"),
        "body": args.body,
        "user": {"login": ctx.state["login"]},
        "created_at": _now(ctx),
        "html_url": f"{issue['html_url']}#issuecomment-{ctx.state['_counters']['comment']}",
    }
    ctx.state["comments"].setdefault(key, []).append(comment)
    issue["comments"] += 1
    return dict(comment)


def list_comments(ctx: ToolContext, args: ListCommentsArgs) -> dict[str, Any]:
    issue = _issue(ctx, args)
    comments = ctx.state["comments"].get(issue["html_url"], [])
    return {"comments": _page(comments, args), "total_count": len(comments)}


_tool = tool_factory(SLUG, scopes=("repo",))


TOOLS = (
    _tool(
        "GITHUB_CREATE_A_REPOSITORY_FOR_THE_AUTHENTICATED_USER",
        "Create a repository for the authenticated user",
        "Creates a new repository owned by the authenticated user. Fails if a repository with "
        "the same name already exists on the account.",
        CreateRepoArgs,
        create_repo,
        "openWorldHint",
    ),
    _tool(
        "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER",
        "List repositories for the authenticated user",
        "Lists (shows) the GitHub repositories (repos) the authenticated user owns, sorted and "
        "paginated.",
        ListReposArgs,
        list_repos,
        "readOnlyHint",
        "idempotentHint",
        "openWorldHint",
    ),
    _tool(
        "GITHUB_CREATE_AN_ISSUE",
        "Create an issue",
        "Creates (opens, files) a new issue in a GitHub repository (title, Markdown body, labels, "
        "assignees) to report a bug, request a feature or track a task.",
        CreateIssueArgs,
        create_issue,
        "openWorldHint",
    ),
    _tool(
        "GITHUB_LIST_REPOSITORY_ISSUES",
        "List repository issues",
        "Lists issues (bugs, tasks) in a GitHub repository, filtered by state (open, closed, "
        "all) and labels.",
        ListIssuesArgs,
        list_issues,
        "readOnlyHint",
        "idempotentHint",
        "openWorldHint",
    ),
    _tool(
        "GITHUB_GET_AN_ISSUE",
        "Get an issue",
        "Gets (reads) one issue of a GitHub repository by its number, with title, body, state "
        "and labels.",
        IssueRefArgs,
        get_issue,
        "readOnlyHint",
        "idempotentHint",
        "openWorldHint",
    ),
    _tool(
        "GITHUB_UPDATE_AN_ISSUE",
        "Update an issue",
        "Updates an issue's title, body, labels or state; close an issue as completed or not "
        "planned, or reopen it.",
        UpdateIssueArgs,
        update_issue,
        "idempotentHint",
        "openWorldHint",
    ),
    _tool(
        "GITHUB_CREATE_AN_ISSUE_COMMENT",
        "Create an issue comment",
        "Adds a comment (reply) to an existing issue or discussion thread.",
        CreateCommentArgs,
        create_comment,
        "openWorldHint",
    ),
    _tool(
        "GITHUB_LIST_ISSUE_COMMENTS",
        "List issue comments",
        "Lists the comments (the discussion) on an issue of a GitHub repository, oldest first.",
        ListCommentsArgs,
        list_comments,
        "readOnlyHint",
        "idempotentHint",
        "openWorldHint",
    ),
)

_REPO = r"/repos/(?P<owner>[^/]+)/(?P<repo>[^/]+)"
_ISSUE = _REPO + r"/issues/(?P<issue_number>\d+)"

TOOLKIT = Toolkit(
    slug=SLUG,
    name="GitHub",
    description="Code hosting: repositories, issues and issue comments.",
    no_auth=False,
    upstream="https://api.github.example",
    tools=TOOLS,
    init_state=_init_state,
    categories=("developer-tools",),
    proxy_routes=(
        ProxyRoute("GET", re.compile(r"^/user/repos$"), TOOLS[1].slug),
        ProxyRoute("POST", re.compile(r"^/user/repos$"), TOOLS[0].slug, status=201),
        ProxyRoute("GET", re.compile(rf"^{_REPO}/issues$"), TOOLS[3].slug),
        ProxyRoute("POST", re.compile(rf"^{_REPO}/issues$"), TOOLS[2].slug, status=201),
        ProxyRoute("GET", re.compile(rf"^{_ISSUE}$"), TOOLS[4].slug),
        ProxyRoute("PATCH", re.compile(rf"^{_ISSUE}$"), TOOLS[5].slug),
        ProxyRoute("GET", re.compile(rf"^{_ISSUE}/comments$"), TOOLS[7].slug),
        ProxyRoute("POST", re.compile(rf"^{_ISSUE}/comments$"), TOOLS[6].slug, status=201),
    ),
)
