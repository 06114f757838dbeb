"""Changes to a database that a running `kgqa serve` holds: `kgqa triples add|delete`, `kgqa load` and
`kgqa index update` send them to the service (POST /v1/triples, POST /v1/index/update) instead of
opening the database, which the service holds (Kùzu: one writer, no writer beside readers)."""

from __future__ import annotations

from typing import Any

from kgqa.graph.edits import triple_records_in_file
from kgqa.service.client import MAX_TRIPLES, ServiceClient, service_for_writes


def running_service(db_path: Any) -> ServiceClient | None:
    """The service holding this database, or None."""
    return service_for_writes(db_path)


def item(record: Any) -> dict[str, Any]:
    """A checked triple record as an item of `POST /v1/triples`."""
    out: dict[str, Any] = {
        "subject": record.subject.id,
        "predicate": record.predicate,
        "object": record.object.id,
        "object_is_literal": record.object.is_literal,
    }
    for key, value in (
        ("subject_label", record.subject.label),
        ("object_label", record.object.label),
        ("subject_types", list(record.subject.types or ())),
        ("object_types", list(record.object.types or ())),
    ):
        if value:
            out[key] = value
    return out


def send_items(client: ServiceClient, kind: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    """Send `items` to add or delete (`kind`) in batches of MAX_TRIPLES; the touched hubs are rebuilt after
    the last batch. The summed reply (each batch is atomic on its own)."""
    total: dict[str, Any] = {"added": 0, "entities_added": 0, "deleted": 0, "not_found": 0, "hubs_marked": 0}
    total.update(triples_total=None, index=None)
    if not items:
        return total
    batches = [items[i : i + MAX_TRIPLES] for i in range(0, len(items), MAX_TRIPLES)]
    for n, batch in enumerate(batches, start=1):
        reply = client.triples({kind: batch, "update_index": n == len(batches)})
        for key in ("added", "entities_added", "deleted", "not_found", "hubs_marked"):
            total[key] += reply.get(key, 0)
        total["triples_total"], total["index"] = reply.get("triples_total"), reply.get("index")
    return total


def send_file(client: ServiceClient, kind: str, path: str, fmt: str | None) -> dict[str, Any]:
    """The triples of a file (any load format; records that state only an entity's facts are not sent),
    added or deleted through the service."""
    return send_items(client, kind, [item(r) for r in triple_records_in_file(path, fmt)])
