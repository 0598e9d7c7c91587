"""Every exception langchain_toolrouter raises, in one place.

Catch a class, read its fields; never match on message text. No exception carries the API
key: messages, reprs and attributes hold none. The tree::

    Exception
    ├── ToolRouterError                 base of the errors a program handles
    │   ├── ConfigurationError          bad or missing settings (e.g. no COMPOSIO_API_KEY);
    │   │   │                           ValueError
    │   │   └── UserMismatchError           a run names a user other than the one the
    │   │                                   server authenticated
    │   ├── RequestValidationError      a request you built is invalid; nothing was sent;
    │   │                               ValueError
    │   ├── APIError                    the service answered with an error status
    │   │   ├── BadRequestError             400
    │   │   ├── AuthenticationError         401
    │   │   ├── PermissionDeniedError       403
    │   │   ├── NotFoundError               404
    │   │   ├── ConflictError               409 (a stale expected_config_version)
    │   │   ├── UnprocessableEntityError    422
    │   │   ├── RateLimitError              429 (retry_after)
    │   │   └── ServerError                 5xx
    │   ├── TransportError              no usable HTTP answer (request_sent says if it
    │   │                               may have run)
    │   │   ├── ConnectError                never connected; nothing was sent
    │   │   ├── RequestTimeoutError         connect, write, read or pool timeout
    │   │   │   └── DeadlineExceededError       outlasted attempt_deadline
    │   │   ├── ConnectionLostError         dropped after the request was sent
    │   │   ├── ResponseTooLargeError       outgrew max_response_bytes (not retried)
    │   │   └── ResponseValidationError     an answer that cannot be decoded, or a 2xx
    │   │                                   body that does not fit the expected model
    │   │                                   (not retried)
    │   ├── ToolSearchError             the service's tool search failed for the query
    │   ├── ConnectionTimeoutError      wait_for_connection gave up; TimeoutError
    │   ├── ConnectionFailedError       the account ended FAILED or EXPIRED; its link is dead
    │   └── FileTransferError           a presigned upload or download failed
    ├── ToolRouterToolError             answered to the model as an error ToolMessage
    │   │                               (a ToolException; raise_errors=True raises it)
    │   ├── ToolArgumentsError          the call's arguments do not fit the tool's schema
    │   ├── ToolExecutionError          the tool ran and reported a failure (in-band)
    │   ├── ToolNotConnectedError       the toolkit has no active connection; carries the link
    │   ├── ToolRateLimitError          the service kept answering 429 after the retries
    │   ├── ToolServiceError            the service refused or failed the request (4xx/5xx)
    │   └── ToolTransportError          no answer after the retries; request_sent says
    │                                   whether the call may have run
    ├── SchemaConversionError           a tool's input schema is not an object schema;
    │                                   ValueError
    ├── ArgsValidationError             arguments break a tool's schema (.errors); ValueError
    ├── CustomSlugError                 a custom tool or toolkit slug the service would
    │                                   refuse; ValueError
    └── AmbiguousSlugError              a bare slug names several custom tools; LookupError

This module is the door: the classes live below the layers that raise them, and are
re-exported here. The ones that need no LangChain are in `_exceptions` (the wire layer raises
them, and loads no LangChain), the `ToolRouterToolError` family with the texts the model reads
(`_answers`), and the schema errors in `langchain_toolrouter.schema.errors` (the schema layer
is pure). A tool that ran and failed is not an exception
for the low-level client: ``ExecuteResult.successful`` says so; a LangChain tool answers the
model with a `ToolExecutionError` message.
"""

from langchain_toolrouter._answers import (
    ToolArgumentsError,
    ToolExecutionError,
    ToolNotConnectedError,
    ToolRateLimitError,
    ToolRouterToolError,
    ToolServiceError,
    ToolTransportError,
)
from langchain_toolrouter._exceptions import (
    AmbiguousSlugError,
    APIError,
    AuthenticationError,
    BadRequestError,
    ConfigurationError,
    ConflictError,
    ConnectError,
    ConnectionFailedError,
    ConnectionLostError,
    ConnectionTimeoutError,
    CustomSlugError,
    DeadlineExceededError,
    FileTransferError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    RequestTimeoutError,
    RequestValidationError,
    ResponseTooLargeError,
    ResponseValidationError,
    ServerError,
    ToolRouterError,
    ToolSearchError,
    TransportError,
    UnprocessableEntityError,
    UserMismatchError,
    error_class_for_status,
)
from langchain_toolrouter.schema.errors import ArgsValidationError, SchemaConversionError

__all__ = [
    "APIError",
    "AmbiguousSlugError",
    "ArgsValidationError",
    "AuthenticationError",
    "BadRequestError",
    "ConfigurationError",
    "ConflictError",
    "ConnectError",
    "ConnectionFailedError",
    "ConnectionLostError",
    "ConnectionTimeoutError",
    "CustomSlugError",
    "DeadlineExceededError",
    "FileTransferError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "RequestTimeoutError",
    "RequestValidationError",
    "ResponseTooLargeError",
    "ResponseValidationError",
    "SchemaConversionError",
    "ServerError",
    "ToolArgumentsError",
    "ToolExecutionError",
    "ToolNotConnectedError",
    "ToolRateLimitError",
    "ToolRouterError",
    "ToolRouterToolError",
    "ToolSearchError",
    "ToolServiceError",
    "ToolTransportError",
    "TransportError",
    "UnprocessableEntityError",
    "UserMismatchError",
    "error_class_for_status",
]
