#!/usr/bin/env bash
# Adapter for the sandbox escape kit (/work/shared/tools/sandbox-escape/run.sh): each probe runs as
# one call of toolrt's Bash tool (`toolrt run Bash`), with no allow rule, no --yes and no terminal,
# so it runs only if the decision allows it by itself: with sandbox auto-allow on (the default),
# because it runs in the sandbox. The kit's profile ("workspace-write, no network, ~/.ssh hidden,
# SBX_KIT_SECRET dropped") is a policy file; the kit's workspace is --cwd.
#   run.sh bench/support/escape-kit-bash-tool.sh
# TOOLRT: the toolrt command line (default: this checkout's bun and src/cli/main.ts).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
read -r -a toolrt <<<"${TOOLRT:-$here/../../node_modules/.bin/bun $here/../../src/cli/main.ts}"
policy=$SBX_SCRATCH/toolrt-policy.json
if [[ ! -f $policy ]]; then
  printf '{ "sandbox": { "denyRead": ["~/.ssh"], "unsetEnv": ["%s"] } }\n' "${SBX_SECRET_NAME:-SBX_KIT_SECRET}" >"$policy"
fi
input=$(python3 -c 'import json, sys; print(json.dumps({"command": sys.argv[1]}))' "$1")
exec "${toolrt[@]}" --cwd "$SBX_WS" --state-dir "$SBX_SCRATCH/toolrt-state" --policy "$policy" run Bash "$input"
