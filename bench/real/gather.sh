#!/usr/bin/env bash
# Rebuilds .real-labs/ from local git copies of the corpus's source repositories (README.md, "Getting the
# PDFs"): every PDF, JPEG or PNG blob in each repository's object store is taken (images made one-page PDFs by
# img2pdf.py), and kept only where its SHA-256 is a truth file's name. File names and folders of the
# repositories do not matter; nothing is kept that has no truth.
#
#   bash bench/real/gather.sh GIT_DIR...     (each a clone or bare git dir; the folder made is named after
#                                              the parent of a bare dir named `repo`, else after the dir)
set -euo pipefail
cd "$(dirname "$0")/../.."
python=${PYTHON:-python3}
"$python" -c 'import PIL' 2>/dev/null || { echo "gather: img2pdf.py needs Pillow (apt-get install python3-pil; PYTHON=/usr/bin/python3)" >&2; exit 2; }
declare -A want
for f in bench/real/truth/*.json; do want[$(basename "$f" .json)]=1; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
found=0
for dir in "$@"; do
  name=$(basename "$dir"); [ "$name" = repo ] && name=$(basename "$(dirname "$dir")")
  # Every blob in the store, reachable or not (some files were committed and later deleted), told by its
  # first bytes rather than its name.
  while read -r blob; do
    git -C "$dir" cat-file blob "$blob" > "$tmp/blob" 2>/dev/null || continue
    magic=$(head -c 4 "$tmp/blob" | od -An -tx1 | tr -d ' \n')
    rm -f "$tmp/doc.pdf"
    case "$magic" in
      25504446) cp "$tmp/blob" "$tmp/doc.pdf" ;;
      ffd8ff* | 89504e47) "$python" bench/real/img2pdf.py "$tmp/blob" "$tmp/doc.pdf" 2>/dev/null || continue ;;
      *) continue ;;
    esac
    sha=$(sha256sum "$tmp/doc.pdf" | cut -c1-64)
    [ -n "${want[$sha]:-}" ] || continue
    mkdir -p ".real-labs/$name"
    [ -e ".real-labs/$name/${sha:0:12}.pdf" ] || { cp "$tmp/doc.pdf" ".real-labs/$name/${sha:0:12}.pdf"; found=$((found + 1)); }
  done < <(git -C "$dir" cat-file --batch-all-objects --batch-check='%(objecttype) %(objectname) %(objectsize)' |
    awk '$1 == "blob" && $3 > 4096 { print $2 }')
done
echo "gather: $found new PDFs with truth in .real-labs/ ($(find .real-labs -name '*.pdf' | wc -l) in all, ${#want[@]} truth files)"
