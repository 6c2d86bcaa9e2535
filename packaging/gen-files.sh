#!/bin/sh
# Build-time files of the Debian packages (packaging/CMakeLists.txt):
#   gen-files.sh cli EDGECOMPILE OUT_DIR      edgecompile.1.gz and edgecompile.bash, from the CLI
#   gen-files.sh gzip SRC DEST                SRC compressed reproducibly (gzip -9n)
set -eu
case "$1" in
  cli)
    mkdir -p "$3"
    "$2" manpage | gzip -9n > "$3/edgecompile.1.gz.tmp"
    "$2" completion bash > "$3/edgecompile.bash.tmp"
    mv "$3/edgecompile.1.gz.tmp" "$3/edgecompile.1.gz"
    mv "$3/edgecompile.bash.tmp" "$3/edgecompile.bash"
    ;;
  gzip)
    mkdir -p "$(dirname "$3")"
    gzip -9n < "$2" > "$3.tmp"
    mv "$3.tmp" "$3"
    ;;
  *) echo "usage: gen-files.sh cli EDGECOMPILE OUT_DIR | gzip SRC DEST" >&2; exit 2 ;;
esac
