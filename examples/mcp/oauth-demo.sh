#!/usr/bin/env bash
# `toolrt mcp login` against a local OAuth-protected MCP server (fixtures/mcp/oauth-server.ts, whose
# authorization server approves at once): curl plays the browser through $BROWSER. Then a call with
# the stored token, and logout. Run from the repository root once `npm run build` has made dist/toolrt.
set -euo pipefail
node_modules/.bin/bun fixtures/mcp/oauth-server.ts --port 8791 > /dev/null &
server=$!
trap 'kill "$server"' EXIT
until curl -sf http://127.0.0.1:8791/.well-known/oauth-authorization-server > /dev/null; do sleep 0.2; done
toolrt=(dist/toolrt --mcp-config examples/mcp/oauth-demo.json)
BROWSER="curl -sL" "${toolrt[@]}" mcp login demo
"${toolrt[@]}" --allow mcp__demo__echo run mcp__demo__echo '{"text":"hello through OAuth"}'
"${toolrt[@]}" mcp logout demo
