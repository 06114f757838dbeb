-- Non-literal entities that may be hub roots (one of `hub_types`, or any when a degree criterion is
-- given), with their out-degree; the criteria are applied by the caller (isHubRoot).
-- params: hub_types text[], any_type boolean   returns: id, label, types, out_degree
SELECT e.id, e.label, e.types, count(t.subject) AS out_degree
FROM kgqa.entities e LEFT JOIN kgqa.triples t ON t.subject = e.id
WHERE NOT e.is_literal AND (%(any_type)s::boolean OR e.types::text[] && %(hub_types)s::text[])
GROUP BY e.id, e.label, e.types
ORDER BY e.id;
