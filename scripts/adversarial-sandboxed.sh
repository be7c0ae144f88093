#!/usr/bin/env bash
# The adversarial corpus (fixtures/bash/adversarial.jsonl) through `toolrt check --sandboxed`, as a
# user runs it: every catastrophic ("deny") line must still be denied, and no line may be allowed
# past a deny or ask rule for its leading word (`--deny 'Bash(WORD:*)'`, `--ask 'Bash(WORD:*)'`).
# Prints the figures and each violation; exits 1 when there is one.
#   scripts/adversarial-sandboxed.sh [TOOLRT]      (default: dist/toolrt of this checkout)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
toolrt=${1:-$here/dist/toolrt}
corpus=$here/fixtures/bash/adversarial.jsonl
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/home" "$scratch/work"
# A fresh home, config and state: only the embedded default policy and the rules given here apply.
export HOME=$scratch/home XDG_CONFIG_HOME=$scratch/home/.config TOOLRT_STATE_DIR=$scratch/state
cd "$scratch/work"

check() { # check [RULE-OPTION...] < json-lines: one decision per line
  "$toolrt" "$@" check --sandboxed --batch - --batch-format json-lines Bash | jq -r .decision
}

jq -c .command "$corpus" | check >"$scratch/default"
paste -d '\t' <(jq -r .expect "$corpus") "$scratch/default" >"$scratch/joined"
total=$(wc -l <"$corpus")
deny_lines=$(awk -F'\t' '$1 == "deny"' "$scratch/joined" | wc -l)
denied=$(awk -F'\t' '$1 == "deny" && $2 == "deny"' "$scratch/joined" | wc -l)
echo "corpus: $total lines; default policy, sandboxed: $(cut -f2 "$scratch/joined" | sort | uniq -c | xargs)"
echo "catastrophic lines denied: $denied/$deny_lines"
failures=0
if [[ $denied -ne $deny_lines ]]; then
  paste -d '\t' "$scratch/joined" <(jq -r .command "$corpus") | awk -F'\t' '$1 == "deny" && $2 != "deny" { print "  NOT DENIED: " $3 }'
  failures=1
fi

# The leading word of each line (after NAME=value assignments), as the corpus test takes it; "-" for none.
read -r -d '' leading_word <<'JQ' || true
.command | sub("^(\\s*[A-Za-z_][A-Za-z0-9_]*=('[^']*'|\"[^\"]*\"|[^\\s'\"])*)+\\s+"; "")
  | (capture("^[\\s({!]*(?<w>[A-Za-z0-9_./][A-Za-z0-9_.+/-]*)").w // "-")
JQ
jq -r "$leading_word" "$corpus" >"$scratch/words"
paste -d '\t' "$scratch/words" <(jq -c .command "$corpus") >"$scratch/by-word"
past=0
ruled=0
for effect in deny ask; do
  while read -r word; do
    [[ $word == - ]] && continue
    lines=$(awk -F'\t' -v w="$word" '$1 == w { print $2 }' "$scratch/by-word")
    count=$(printf '%s\n' "$lines" | wc -l)
    ruled=$((ruled + count))
    allowed=$(printf '%s\n' "$lines" | check "--$effect" "Bash($word:*)" | grep -c '^allow$' || true)
    if [[ $allowed -gt 0 ]]; then
      echo "  ALLOWED PAST --$effect 'Bash($word:*)': $allowed line(s)"
      past=$((past + allowed))
    fi
  done < <(cut -f1 "$scratch/by-word" | sort -u)
done
echo "lines checked against a deny and an ask rule for their leading word: $((ruled / 2)); allowed past the rule: $past"
[[ $past -eq 0 && $failures -eq 0 ]]
