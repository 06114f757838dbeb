#!/usr/bin/env bash
# Vendor the graph library of the `kgqa serve` page from npm (run at build time, with network access):
# cytoscape's minified build and its licence go into kgqa/service/web/vendor/, served from the package.
set -euo pipefail
VERSION=${1:-3.34.4}
cd "$(dirname "$0")/.."
DEST=kgqa/service/web/vendor
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
(cd "$TMP" && npm pack --silent "cytoscape@$VERSION" >/dev/null && tar xzf "cytoscape-$VERSION.tgz")
cp "$TMP/package/dist/cytoscape.min.js" "$DEST/cytoscape.min.js"
cp "$TMP/package/LICENSE" "$DEST/cytoscape.LICENSE"
sed -i "s/cytoscape [0-9.]* (npm/cytoscape $VERSION (npm/" "$DEST/README.md"
echo "vendored cytoscape $VERSION into $DEST"
