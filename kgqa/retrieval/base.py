"""The retriever protocol and its result; `BaseRetriever.retrieve` is the shared template method."""

from __future__ import annotations

import re
import time

from kgqa.errors import InputError
from kgqa.types import Answer

MAX_QUESTION_CHARS = 4000
#: C0 control characters and DEL, but tab, newline and carriage return (a pasted question may hold them).
_QUESTION_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class BaseRetriever:
    """Validates the question, times the run and tags the result; subclasses implement `_retrieve`."""

    name = "base"

    def retrieve(self, question: str) -> Answer:
        """Answer `question` with the parameters the retriever was built with."""
        q = (question or "").strip()
        if not q:
            raise InputError("the question is empty")
        if len(q) > MAX_QUESTION_CHARS:
            raise InputError(f"the question has {len(q)} characters; the limit is {MAX_QUESTION_CHARS}")
        bad = _QUESTION_CONTROL.search(q)
        if bad:
            raise InputError(f"control character {bad.group()!r} is not allowed in the question", field="question")
        start = time.perf_counter()
        answer = self._retrieve(q)
        answer.timings["total"] = time.perf_counter() - start
        answer.retriever = self.name
        return answer

    def _retrieve(self, question: str) -> Answer:
        raise NotImplementedError
