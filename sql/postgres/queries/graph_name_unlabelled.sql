-- After graph_merge_entities: an entity of this load that has no label (no record states one, now or
-- before) is labelled with the name its id gives (staged `name`, kgqa.types.name_from_id), as the Kùzu
-- loader does.
UPDATE kgqa.entities e SET label = s.name
FROM kgqa_stage_entities s
WHERE e.id = s.id AND e.label = '' AND coalesce(s.name, '') <> '';
