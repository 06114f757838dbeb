-- A worker stops: its row goes (questions it still held are taken again when their lease runs out).
-- params: worker text
DELETE FROM kgqa.workers WHERE worker_id = %(worker)s::text;
