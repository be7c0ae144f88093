#!/usr/bin/env bash
# `toolrt mcp login` against a local OAuth-protected MCP server (fixtures/mcp/oauth-server.ts, whose
# authorization server approves at once): curl plays the browser through $BROWSER. Then a call with
# the stored token, and logout. Run from the repository root once `npm run build` has made dist/toolrt.
# The server takes a free port; the server list naming it is written to a temp dir.
set -euo pipefail
dir=$(mktemp -d)
node_modules/.bin/bun fixtures/mcp/oauth-server.ts --port 0 > "$dir/server.out" &
server=$!
trap 'kill "$server"; rm -rf "$dir"' EXIT
until grep -q '^listening ' "$dir/server.out"; do
  kill -0 "$server" # stop here if the server died
  sleep 0.1
done
url=$(sed -n 's/^listening //p' "$dir/server.out")
printf '{"mcpServers": {"demo": {"url": "%s/mcp"}}}\n' "$url" > "$dir/mcp.json"
toolrt=(dist/toolrt --mcp-config "$dir/mcp.json")
BROWSER="curl -sL" "${toolrt[@]}" mcp login demo
"${toolrt[@]}" --allow mcp__demo__echo run mcp__demo__echo '{"text":"hello through OAuth"}'
"${toolrt[@]}" mcp logout demo
