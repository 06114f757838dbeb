"""The one exception hierarchy of the library. The CLI maps these to messages and exit codes."""

from __future__ import annotations


class KgqaError(Exception):
    """Base class of every error the library raises on purpose."""

    exit_code = 1


class ConfigError(KgqaError):
    """A setting or parameter has an invalid value."""

    exit_code = 2


class TripleLayoutRequiredError(ConfigError):
    """A part of HubLink that reads only its own triple layout (`kgqa load`) was asked to run on a
    user's own property graph (names the part and what works there instead)."""


class GraphViewError(ConfigError):
    """A user's own graph views (`KGQA_PG_GRAPH_SCHEMA`) break the view contract of
    docs/postgres-graph.md: a missing view or column, or a column of the wrong type (names which)."""


class InputError(KgqaError):
    """Input data (a file, a record, a question) is malformed; names where and what."""

    exit_code = 3

    def __init__(
        self, message: str, *, source: str | None = None, line: int | None = None, field: str | None = None
    ) -> None:
        self.source = source
        self.line = line
        self.field = field
        where = []
        if source:
            where.append(str(source))
        if line is not None:
            where.append(f"line {line}")
        if field:
            where.append(f"field '{field}'")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message)


class UnsupportedFormatError(InputError):
    """The input format is unknown or cannot be detected."""


class StoreError(KgqaError):
    """A database operation failed (wraps the driver's error with the query name)."""

    exit_code = 4


class StoreBusyError(StoreError):
    """The database is locked by another process."""


class StorageFullError(StoreError):
    """A write to the database's files failed: the disk is full or a file size limit was reached. The
    failed transaction is rolled back; what committed before stays."""

    exit_code = 12


class PageCacheFullError(StoreError):
    """Kùzu's page cache (buffer pool) was too small for a query; nothing it wrote was kept."""


class StoreUnavailableError(StoreError):
    """The database server cannot be reached now (down or restarting); retrying later may work.
    The HTTP service maps it to 503."""


class SchemaError(StoreError):
    """The database schema is missing, newer than this program, or inconsistent."""


class NotInitialisedError(StoreError):
    """No HubLink database exists at the given location."""


class HubIndexError(KgqaError):
    """Base for problems with the HubLink index."""

    exit_code = 5


class SharedBuildError(HubIndexError):
    """A build shared by several worker processes could not finish (a batch failed, the workers died)."""


class IndexMissingError(HubIndexError):
    """No HubLink index has been built yet."""


class IndexMismatchError(HubIndexError):
    """The stored index was built with different settings (e.g. another embedding model)."""


class EntityNotFoundError(KgqaError):
    """An entity given by id or label does not exist in the graph; `field`: the request field that named it."""

    exit_code = 6

    def __init__(self, message: str, *, field: str | None = None) -> None:
        self.field = field
        super().__init__(message)


class AmbiguousEntityError(EntityNotFoundError):
    """A label matches several entities; the candidates are listed."""


class EmbeddingError(KgqaError):
    """The embedding model could not be loaded or failed."""

    exit_code = 7


class LLMError(KgqaError):
    """An LLM provider failed or returned an unusable reply."""

    exit_code = 8


class LLMReplyError(LLMError):
    """The LLM's reply could not be parsed, even after one corrective retry."""


class TokenBudgetExceeded(LLMError):
    """A request would take the question past its token budget (callers decline or fall back)."""


class ConfirmationRequired(ConfigError):
    """A destructive step (replacing or dropping an index, removing hubs) was not confirmed:
    the message says what would be removed and which flag (`--rebuild`, `--yes`) allows it."""


class QuestionTimeoutError(KgqaError):
    """A question ran past its time budget (`KGQA_QUESTION_TIMEOUT`); nothing was answered.
    The HTTP service maps it to 504."""

    exit_code = 9


class BatchError(KgqaError):
    """Some items of a batch command (eval, load of several files, triples from a file) failed;
    the message says how many of how many."""

    exit_code = 10


class ServiceUnavailableError(KgqaError):
    """A running `kgqa serve` could not take the request (gone, busy, or refused the token); callers
    may answer in-process instead."""

    exit_code = 11


class OnnxModelMissingError(EmbeddingError):
    """The ONNX embedder's model file is not cached and cannot be exported here (no torch)."""
