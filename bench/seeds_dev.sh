#!/usr/bin/env bash
# Compare the four retrievers (hublink, difar, simgrag, coe) offline on the ORKG dev set and on the demo,
# from a clean clone (after the README setup): load, build each index, answer every question, print the
# metric tables. Extra arguments go to every `kgqa eval` (e.g. --limit 5). Re-running resumes the runs.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared/bench/orkg}
export HF_HUB_OFFLINE=1
mkdir -p runs

compare() {  # compare DB GRAPH QUESTIONS NAME [hub index options...]
  local db=$1 graph=$2 questions=$3 name=$4
  shift 4
  kgqa --db "$db" -q load "$graph"                      # loading twice adds nothing
  kgqa --db "$db" -q index build "$@"                   # HubLink's hub index
  for r in difar simgrag coe; do kgqa --db "$db" -q index build --retriever "$r"; done   # label index
  for r in hublink difar simgrag coe; do
    kgqa --db "$db" -q eval "$questions" --retriever "$r" --out "runs/$name-$r.jsonl" "${EXTRA[@]}"
    echo "== $name, $r"
    kgqa eval report "runs/$name-$r.jsonl" "$questions" | sed -n 1,2p
  done
}

EXTRA=("$@")
compare runs/orkg.kuzu "$SHARED/graph_gv3.json" "$SHARED/questions_dev_gv3.csv" orkg-dev --hub-type Paper --start R659055
compare runs/demo.kuzu kgqa/demo/scholarly_demo.csv kgqa/demo/demo_questions.csv demo --hub-type Paper
