"""The service's contract, property-based (schemathesis against a real `kgqa serve` on the demo graph,
real model): for generated requests to every operation of /openapi.json, no 5xx and no status, content
type or error body the schema does not document. Bounded: a fixed number of examples per operation,
about two minutes in all on the 2-core development machine."""

from __future__ import annotations

from collections import Counter

import pytest
from serve_helpers import Service, build_demo_db

schemathesis = pytest.importorskip("schemathesis", reason="needs schemathesis (pip install -e '.[dev]')")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

pytestmark = pytest.mark.slow

#: Examples per operation (hypothesis stops earlier where an operation has fewer distinct inputs): about
#: 1.5 minutes with the service start on the 2-core development machine, offline mode.
EXAMPLES = 25
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def demo_service(tmp_path_factory, embedder):
    svc = Service(build_demo_db(tmp_path_factory.mktemp("contract") / "demo.kuzu", embedder))
    yield svc
    assert svc.stop() == 0


def test_every_reply_is_documented(demo_service):
    schema = schemathesis.openapi.from_url(demo_service.url + "/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10
    failures: list[str] = []
    seen: Counter[int] = Counter()
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
        def run(case) -> None:
            response = case.call()
            seen[response.status_code] += 1
            case.validate_response(response, checks=CHECKS)

        try:
            run()
        except Exception as exc:  # every operation is tried; all failures are reported together
            failures.append(f"{operation.label}: {exc}")
    print(f"schemathesis: {sum(seen.values())} requests to {len(operations)} operations, by status {dict(seen)}")
    assert not failures, "\n\n".join(failures)
    assert seen[200] and seen[422], seen  # both valid and invalid requests were made
