// Every non-literal entity that meets the hub-root criteria (UDF kgqa_hub_criteria).
// returns: id, label, out_degree
MATCH (e:Entity)
WHERE NOT e.is_literal
OPTIONAL MATCH (e)-[t:Triple]->(:Entity)
WITH e, count(t) AS deg
WHERE kgqa_hub_criteria(e.types, deg)
RETURN e.id, e.label, deg;
