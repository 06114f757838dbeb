// FINDPATHSINHUB in bulk (thesis Alg. 5): all maximal acyclic outbound paths of the given roots.
// A path never passes through another hub root (UDF kgqa_is_hub_root); with $boundary it may END at
// one (the triple that reaches the next hub is kept), otherwise it stops before it. A path is maximal
// when it has {{max_path_length}} triples, ends at a hub root, or cannot be extended acyclically.
// params: $roots STRING[], $boundary BOOLEAN     tokens: {{max_path_length}}
// returns: root, ids, labels, predicates, path_hash, path_text
MATCH (r:Entity)-[t:Triple* ACYCLIC 1..{{max_path_length}} (e, n | WHERE NOT kgqa_is_hub_root(n.id))]->(x:Entity)
WHERE r.id IN $roots AND x.id <> r.id
  AND ($boundary OR NOT kgqa_is_hub_root(x.id))
  AND (length(t) = {{max_path_length}}
       OR ($boundary AND kgqa_is_hub_root(x.id))
       OR NOT EXISTS {
            MATCH (x)-[:Triple]->(y:Entity)
            WHERE y.id <> r.id AND NOT list_contains(properties(nodes(t), 'id'), y.id)
              AND ($boundary OR NOT kgqa_is_hub_root(y.id))
       })
WITH r, list_concat(list_concat([r.id], properties(nodes(t), 'id')), [x.id]) AS ids,
     list_concat(list_concat([r.label], properties(nodes(t), 'label')), [x.label]) AS labels,
     properties(rels(t), 'predicate') AS preds
RETURN r.id, ids, labels, preds, kgqa_path_hash(ids, labels, preds), kgqa_verbalise_path(ids, labels, preds);
