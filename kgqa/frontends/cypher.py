"""A Cypher session for `kgqa cypher`: the user's statements run on a second connection to the
workspace's Kùzu database, with the retrieval UDFs registered on it (their own queries use the
workspace's main connection: a Kùzu connection cannot be re-entered from inside one of its queries)."""

from __future__ import annotations

from typing import Any

from kgqa_procedures.udfs.retrieval import register_retrieval_udfs

from kgqa.config import RetrievalParams, Settings
from kgqa.errors import InputError, KgqaError, StoreError
from kgqa.frontends.service import QuestionService


class CypherSession:
    """Runs Cypher with kgqa_answer, kgqa_result, kgqa_sources, kgqa_retrieve_triples and kgqa_rank_hubs available."""

    def __init__(self, service: QuestionService) -> None:
        self.service = service
        self._udf_error: KgqaError | None = None
        self.conn = service.workspace.store.sibling()
        register_retrieval_udfs(self.conn, _Guarded(self))

    def execute(self, text: str, params: dict[str, Any] | None = None) -> tuple[list[str], list[list[Any]]]:
        """Run a Cypher statement; returns column names and rows."""
        self._udf_error = None
        try:
            return self.conn.query(text, params)
        except StoreError as exc:
            if self._udf_error is not None:
                raise self._udf_error from None
            raise InputError(f"Cypher error: {exc}".replace("query user query failed: ", "")) from None

    def close(self) -> None:
        """Close the second connection and the workspace."""
        self.conn.close()
        self.service.close()


class _Guarded:
    """The service, remembering a library error raised inside a UDF so the statement fails with it."""

    def __init__(self, session: CypherSession) -> None:
        self.session = session

    def _call(self, name: str, *args: Any) -> Any:
        try:
            return getattr(self.session.service, name)(*args)
        except KgqaError as exc:
            self.session._udf_error = exc
            raise

    def record(self, question: Any) -> dict[str, Any]:
        return self._call("record", question)

    def triples(self, question: Any, k: Any) -> list[dict[str, Any]]:
        return self._call("triples", question, k)

    def hubs(self, question: Any, k: Any) -> list[dict[str, Any]]:
        return self._call("hubs", question, k)


def open_cypher_session(
    settings: Settings, params: RetrievalParams | None = None, *, llm: str = "offline"
) -> CypherSession:
    """A Cypher session on the workspace of `settings`."""
    from kgqa.api import Workspace

    return CypherSession(QuestionService(lambda: Workspace(settings, read_only=True), params, llm=llm))
