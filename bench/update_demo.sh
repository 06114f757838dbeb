#!/usr/bin/env bash
# Keeping the index in step with a changing graph (issue 6), on the ORKG benchmark graph:
# load, index, change a few triples of two papers, see exactly those two hubs marked and rebuilt,
# and `ask` answer from the changed graph. Each command is printed with its wall time.
#   bash bench/update_demo.sh                 # a fresh database in runs/update-demo.kuzu
#   GRAPH=other.json START=R1 bash bench/update_demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
GRAPH=${GRAPH:-../shared/bench/orkg/graph_gv3.json}
START=${START:-R659055}
DB=${DB:-runs/update-demo.kuzu}
KGQA=${KGQA:-kgqa}
export HF_HUB_OFFLINE=1
mkdir -p "$(dirname "$DB")"
rm -rf "$DB" "$DB.wal"

step() {
  echo
  local shown="\$ kgqa" arg
  for arg in "$@"; do [[ $arg == *" "* ]] && shown+=" \"$arg\"" || shown+=" $arg"; done
  echo "$shown"
  local start
  start=$(date +%s.%N)
  $KGQA -q --db "$DB" "$@"
  awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "  [%.1f s]\n", b - a }'
}

# Paper A (R868212, ICSA 2017): its publication year becomes 2018.
# Paper B (R868251): its research object (R868287) gains a second evaluation method.
A=R868212; A_YEAR=L1519594; B=R868251; B_OBJECT=R868287
A_TITLE="Accurate Analysis of Quality Properties of Software with Observation-Based Markov Chain Refinement"
B_TITLE="A Framework for Tunable Anomaly Detection"

step load "$GRAPH"
step index build --hub-type Paper --start "$START"
step triples delete -s "$A" -p "publication year" -o "$A_YEAR"
step triples add -s "$A" -p "publication year" -o 2018 --literal
step triples add -s "$B_OBJECT" -p "Evaluation method" -o "Controlled Experiment" --literal
step index status                                 # 2 dirty hubs
step index update --dry-run                       # every hub's path hashes compared: these 2 changed
step index update --dirty                         # rebuild just the marked hubs
step index update                                 # every hub compared again: nothing left to do
step ask "In which year was '$A_TITLE' published?" --topic-entity "$A" --hubs 3
step ask "Which evaluation methods were used in '$B_TITLE'?" --topic-entity "$B" --hubs 3
