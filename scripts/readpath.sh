#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Counts the source files one cold step_log read visits: the read path
# (readtool, the cache layer, upstream, restclient, against the fake Dagu)
# is built twice with statement counts, once reading nothing and once
# making one step_log read (internal/readpath); a non-test file outside
# fakedagu and testkit is visited when any of its blocks counts
# differently. Prints the files, then the count per package and in all.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cover=(-count=1 -covermode=count -coverpkg=github.com/dagu-mcp-gateway/gateway/internal/...)
go test "${cover[@]}" -run '^TestReadPathIdle$' -coverprofile="$out/idle" ./internal/readpath >/dev/null
go test "${cover[@]}" -run '^TestReadPathStepLog$' -coverprofile="$out/read" ./internal/readpath >/dev/null
awk '
	FNR == 1 { next }
	$1 ~ /_test\.go:|\/fakedagu\/|\/testkit\// { next }
	FILENAME ~ /idle$/ { idle[$1] = $3; next }
	$3 != idle[$1] { split($1, at, ":"); visited[at[1]] = 1 }
	END {
		for (f in visited) {
			sub(/^github.com\/dagu-mcp-gateway\/gateway\//, "", f)
			print f
		}
	}
' "$out/idle" "$out/read" | sort >"$out/files"
cat "$out/files"
echo "-- per package"
sed 's|/[^/]*$||' "$out/files" | sort | uniq -c
echo "-- files visited: $(wc -l <"$out/files")"
