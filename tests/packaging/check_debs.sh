#!/usr/bin/env bash
# ctest packaging_debs (issue 43): builds the Debian packages of this build with CPack,
# unpacks them into a scratch root with dpkg -x, and checks what a user installing them
# gets: the expected files and nothing from the build folder inside them, the CLI running
# from the unpacked root on the installed sample model (and finding its TorchScript plugin
# there), the man page and completion the CLI writes, dependencies computed by
# dpkg-shlibdeps, and the validators: desktop-file-validate, appstreamcli validate and
# lintian (errors fail; warnings are printed).
#
# usage: check_debs.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check_debs: FAIL: $*" >&2; exit 1; }

for tool in cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || { echo "check_debs: SKIP: $tool is not installed (packaging/install-deps.sh installs it)"; exit 77; }
done

(cd "$build" && cpack -G DEB -B "$work/debs" >"$work/cpack.log" 2>&1) || { tail -20 "$work/cpack.log"; fail "cpack failed"; }
debs=("$work"/debs/*.deb)
echo "packages: $(cd "$work/debs" && ls *.deb | tr '\n' ' ')"
for p in edgecompiler edgecompiler-workbench; do
  [ -f "$work/debs/${p}_"*"_amd64.deb" ] 2>/dev/null || ls "$work/debs/${p}_"*.deb >/dev/null 2>&1 || fail "no ${p} package"
done

root=$work/root
for d in "${debs[@]}"; do dpkg -x "$d" "$root"; done

# The files a user expects.
expect=(
  usr/bin/edgecompile
  usr/bin/edgecompiler-workbench
  usr/share/edgecompiler/sample_cnn.onnx
  usr/share/man/man1/edgecompile.1.gz
  usr/share/man/man1/edgecompiler-workbench.1.gz
  usr/share/bash-completion/completions/edgecompile
  usr/share/applications/org.edgecompiler.Workbench.desktop
  usr/share/metainfo/org.edgecompiler.Workbench.metainfo.xml
  usr/share/mime/packages/edgecompiler.xml
  usr/share/icons/hicolor/scalable/apps/org.edgecompiler.Workbench.svg
  usr/share/icons/hicolor/48x48/apps/org.edgecompiler.Workbench.png
  usr/share/icons/hicolor/256x256/apps/org.edgecompiler.Workbench.png
  usr/share/doc/edgecompiler/copyright
  usr/share/doc/edgecompiler-workbench/copyright
)
for f in "${expect[@]}"; do [ -e "$root/$f" ] || fail "missing /$f"; done
# Nothing outside /usr, nothing of the tests or benchmarks.
extra=$(cd "$root" && find . -type f | grep -v -E '^\./usr/(bin|lib|share)/' || true)
[ -z "$extra" ] || fail "files outside /usr/{bin,lib,share}: $extra"
! (cd "$root" && find . -type f | grep -q -E '_tests?$|/bench/') || fail "test or benchmark files in the packages"
echo "files: $(cd "$root" && find . -type f | wc -l) (the expected ${#expect[@]} present)"

# No path of the build or source folder inside any installed file: nothing may look there
# at run time, and __FILE__ in assert messages is mapped to relative paths by the top-level
# CMakeLists (-fmacro-prefix-map). A build through ccache with base_dir set compiles with
# relative paths anyway; a plain build (CI) is where this check bites.
hits=$(grep -rl --binary-files=text -F "$build" "$root" || true)
[ -z "$hits" ] || fail "installed files name the build folder $build: $hits"
src_hits=$(grep -rl --binary-files=text -F "$src/" "$root" | sed "s|$root||" | tr '\n' ' ' || true)
[ -z "$src_hits" ] || fail "installed files name the source folder $src: $src_hits"

# The CLI from the unpacked root: version, the installed sample, its man page and completion.
cli=$root/usr/bin/edgecompile
"$cli" --version | grep -q -E '^edgecompile [0-9]+\.[0-9]+\.[0-9]+ \(git [^,]+, [A-Za-z]+\)$' || fail "--version: $("$cli" --version)"
"$cli" inspect "$root/usr/share/edgecompiler/sample_cnn.onnx" >"$work/inspect.txt" || fail "inspect of the installed sample"
grep -q -i "conv" "$work/inspect.txt" || fail "inspect printed no Conv: $(head -5 "$work/inspect.txt")"
zcat "$root/usr/share/man/man1/edgecompile.1.gz" | grep -q '^\.SS compile' || fail "the man page has no compile section"
for sub in $("$cli" --help | sed -n '/^SUBCOMMANDS:/,$p' | awk 'NR > 1 && NF {print $1}'); do
  zcat "$root/usr/share/man/man1/edgecompile.1.gz" | grep -q "^\.SS $sub\$" || fail "the man page misses subcommand $sub"
done
bash -n "$root/usr/share/bash-completion/completions/edgecompile" || fail "the completion script does not parse"
comp=$(bash -c "source '$root/usr/share/bash-completion/completions/edgecompile'; COMP_WORDS=(edgecompile com); COMP_CWORD=1; _edgecompile; echo \"\${COMPREPLY[*]}\"")
[[ " $comp " == *" compile "* ]] || fail "completion of 'edgecompile com' gave: $comp"
comp=$(bash -c "source '$root/usr/share/bash-completion/completions/edgecompile'; COMP_WORDS=(edgecompile bench --ite); COMP_CWORD=2; _edgecompile; echo \"\${COMPREPLY[*]}\"")
[ "$comp" = "--iterations" ] || fail "completion of 'edgecompile bench --ite' gave: $comp"
# The TorchScript plugin, when packaged, is found beside the installed program.
plugin=$(ls "$root"/usr/lib/edgecompiler/plugins/libec_torchscript.so "$root"/usr/lib/*/edgecompiler/plugins/libec_torchscript.so 2>/dev/null | head -1 || true)
if [ -n "$plugin" ] && /usr/bin/python3 -c 'import torch' 2>/dev/null; then
  /usr/bin/python3 - "$work/linear.pt" <<'PY'
import sys, torch
torch.manual_seed(0)
torch.jit.trace(torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.ReLU()).eval(), torch.randn(1, 8)).save(sys.argv[1])
PY
  env -u EC_TORCHSCRIPT_PLUGIN "$cli" inspect "$work/linear.pt" --input-shape input=1,8 >"$work/pt.txt" 2>&1 ||
    fail "the installed CLI cannot read TorchScript with its installed plugin: $(head -3 "$work/pt.txt")"
  echo "TorchScript through the installed plugin: ok"
fi

# Dependencies computed, versions from one place.
dpkg-deb -f "$work"/debs/edgecompiler_*.deb Depends | grep -q libdnnl || fail "edgecompiler's Depends lacks libdnnl (dpkg-shlibdeps)"
dpkg-deb -f "$work"/debs/edgecompiler-workbench_*.deb Depends | grep -q -E 'edgecompiler \(= ' || fail "the workbench does not depend on edgecompiler of its version"
version=$("$cli" --version | awk '{print $2}')
for d in "${debs[@]}"; do
  [ "$(dpkg-deb -f "$d" Version)" = "$version" ] || fail "$(basename "$d") has version $(dpkg-deb -f "$d" Version), the CLI $version"
done

# Validators (installed by packaging/install-deps.sh).
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$root/usr/share/applications/org.edgecompiler.Workbench.desktop" || fail "desktop-file-validate"
  echo "desktop-file-validate: ok"
else
  echo "desktop-file-validate: not installed, skipped"
fi
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "$root/usr/share/metainfo/org.edgecompiler.Workbench.metainfo.xml" >"$work/as.log" 2>&1 ||
    { cat "$work/as.log"; fail "appstreamcli validate"; }
  echo "appstreamcli validate: ok"
else
  echo "appstreamcli: not installed, skipped"
fi
if command -v lintian >/dev/null; then
  lintian --tag-display-limit 0 "${debs[@]}" >"$work/lintian.log" 2>&1 || true
  grep -v "root privileges" "$work/lintian.log" || true
  ! grep -q '^E: ' "$work/lintian.log" || fail "lintian reports errors"
  echo "lintian: no errors ($(grep -c '^W: ' "$work/lintian.log" || true) warnings)"
else
  echo "lintian: not installed, skipped"
fi
echo "check_debs: ok"
