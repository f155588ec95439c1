#!/usr/bin/env bash
# Checks the editor support, as CI runs it (.ci/run):
#   1. tree-sitter-gala: the parser regenerated from grammar.js equals the
#      committed src/ (else it fails and leaves the new one to commit);
#   2. its corpus and highlight tests (`tree-sitter test`);
#   3. every example, test game and game of the docs parses without an ERROR
#      or MISSING node, and every game of tests/ui/parse (syntax errors for
#      galac) has one, except the few whose error is not a matter of grammar
#      (listed below);
#   4. the VS Code extension: its tests (`npm test`: the TextMate grammar
#      agrees with the highlight queries, the word lists with the docs), and
#      it packages as editors/vscode/gala.vsix.
# Needs the tree-sitter CLI at the version in TREE_SITTER_VERSION (README,
# "Editors", says how to install it; .ci/run does), a C compiler, Node.js and npm.
set -euo pipefail
cd "$(dirname "$0")"
editors=$PWD
repo=$(cd .. && pwd)

want=$(cat tree-sitter-gala/TREE_SITTER_VERSION)
if ! command -v tree-sitter >/dev/null; then
    echo "editors/check.sh: no tree-sitter CLI: cargo install --locked tree-sitter-cli@$want" >&2
    exit 1
fi
have=$(tree-sitter --version | awk '{print $2}')
if [ "$have" != "$want" ]; then
    echo "editors/check.sh: tree-sitter $have, but the parser is generated with $want:" \
        "cargo install --locked tree-sitter-cli@$want" >&2
    exit 1
fi

# ---------------------------------------------------------------- 1. generate
cd "$editors/tree-sitter-gala"
# A scratch folder: the committed src/, the games of the docs.
committed=$(mktemp -d)
trap 'rm -rf "$committed"' EXIT
cp -r src "$committed/src"
tree-sitter generate
if ! diff -r "$committed/src" src >/dev/null; then
    diff -r "$committed/src" src | head -20 >&2 || true
    echo "editors/check.sh: src/ differs from what grammar.js generates: commit the regenerated src/" >&2
    exit 1
fi
echo "tree-sitter-gala: src/ matches grammar.js"

# ---------------------------------------------------------------- 2. corpus and highlights
tree-sitter test

# ---------------------------------------------------------------- 3. the repository's games
# Games galac accepts: examples, test games and the CLI tests' games (fuzz/seeds holds copies).
mapfile -t good < <(cd "$repo" && find examples tests cli/tests -name '*.gala' -not -path 'tests/ui/parse/*' | sort)
# tests/ui/parse: galac reports a syntax or lexical error in each. These
# errors are beyond a grammar (a value too large, nesting past galac's
# limits, bytes that are not UTF-8), so the file parses here.
not_grammar=(
    blocks_nested_too_deeply.gala
    expression_nested_too_deeply.gala
    integer_literal_too_large.gala
    invalid_utf8.gala
    type_nested_too_deeply.gala
)
mapfile -t bad < <(cd "$repo" && find tests/ui/parse -name '*.gala' | sort)

# And the games of the docs (their ```gala blocks), one file each.
for doc in README.md docs/language.md; do
    awk -v out="$committed/$(basename "$doc" .md)" '
        /^```gala$/ { n++; file = out "-" n ".gala"; inside = 1; next }
        /^```/ { inside = 0 }
        inside { print > file }' "$repo/$doc"
done
mapfile -t -O "${#good[@]}" good < <(find "$committed" -maxdepth 1 -name '*.gala' | sort)

failed=0
# One parse of all the good games; `--quiet` prints only the files with errors.
if ! (cd "$repo" && tree-sitter parse --quiet --grammar-path "$editors/tree-sitter-gala" "${good[@]}"); then
    echo "editors/check.sh: the games above parse with error nodes" >&2
    failed=1
fi
n_bad=0
for f in "${bad[@]}"; do
    name=$(basename "$f")
    if printf '%s\n' "${not_grammar[@]}" | grep -qx "$name"; then
        continue
    fi
    n_bad=$((n_bad + 1))
    # `--quiet` prints the file with its first ERROR or MISSING node, if any.
    out=$(cd "$repo" && tree-sitter parse --quiet --grammar-path "$editors/tree-sitter-gala" "$f" 2>&1 || true)
    if ! grep -q '(ERROR\|(MISSING' <<<"$out"; then
        echo "editors/check.sh: $f parses without an error node, but galac rejects its syntax" >&2
        failed=1
    fi
done
[ "$failed" = 0 ] || exit 1
echo "tree-sitter-gala: ${#good[@]} games (examples, tests, docs) parse without error nodes; $n_bad syntax-error games have one"

# ---------------------------------------------------------------- 4. the VS Code extension
cd "$editors/vscode"
# --ignore-scripts: no install script is needed (vsce's optional keytar would
# try to download or compile a native module; esbuild's binary comes in its
# platform package all the same).
npm ci --ignore-scripts --no-audit --no-fund
npm test
# Bundles the client with esbuild (the `vscode:prepublish` script), then packages.
npm run package
echo "vscode: packaged editors/vscode/gala.vsix"
