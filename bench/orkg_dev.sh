#!/usr/bin/env bash
# Reproduce the offline HubLink run on the ORKG dev set from a clean clone (after the README setup):
# load the graph, build the index, answer the 44 questions, print the metric table beside the thesis.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared/bench/orkg}
DB=${KGQA_DB:-runs/orkg.kuzu}
mkdir -p runs
export KGQA_DB="$DB" HF_HUB_OFFLINE=1
[ -e "$DB" ] || kgqa init
kgqa load "$SHARED/graph_gv3.json"
/usr/bin/time -f "index build: %e s wall, %M KiB peak RSS" kgqa index build --hub-type Paper --start R659055
kgqa eval "$SHARED/questions_dev_gv3.csv" --out runs/orkg-dev-offline.jsonl "$@"
kgqa eval report runs/orkg-dev-offline.jsonl "$SHARED/questions_dev_gv3.csv"
