#!/usr/bin/env bash
# Installs every Debian package that edgecompiler's build, run and tests need.
# Idempotent and non-interactive: packages already present are not touched,
# and apt-get runs only when something is missing.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config ccache
  # core
  libonnx-dev libprotobuf-dev protobuf-compiler
  libflatbuffers-dev flatbuffers-compiler
  libeigen3-dev libdnnl-dev libusb-1.0-0-dev libspdlog-dev libfmt-dev
  ocl-icd-opencl-dev  # only a Recommends of libdnnl-dev, but its CMake config requires OpenCL
  libcli11-dev nlohmann-json3-dev
  libsqlite3-dev nettle-dev  # run history (core/history): SQLite, SHA-256 of model files
  librsvg2-dev  # `edgecompile draw g.png` (core/render): our SVG rasterised by librsvg + cairo, text included
  # frontends: TorchScript (libtorch, loaded as a plugin), Keras (.keras zip + HDF5 weights)
  libtorch-dev libzip-dev libhdf5-dev
  # GUI
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-tools-dev qt6-l10n-tools qt6-tools-dev-tools libgl-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev libonnx-testdata
  python3 python3-numpy python3-onnx python3-protobuf python3-torch python3-torchvision python3-h5py
  xvfb xauth
  chromium  # the HTML report is tested in a real browser, headless and offline (tests/render)
  # the Python API (app/python): pybind11 binding, tests run by /usr/bin/python3 with pytest
  pybind11-dev python3-dev python3-pytest
  # the ssh provider's test starts a real sshd on 127.0.0.1 (core/devices/test)
  openssh-server openssh-client
  # fuzzing (tests/fuzz, EC_FUZZ=ON): clang and its libFuzzer/sanitizer runtimes
  clang libclang-rt-14-dev
  # Debian packages of edgecompiler (packaging/make-debs.sh, ctest packaging_debs): dpkg-shlibdeps,
  # and the validators of the desktop entry, the AppStream metainfo and the packages
  dpkg-dev file desktop-file-utils appstream lintian
)

missing=()
# Node.js and npm run the ONNX Runtime peer in bench/. A machine may carry
# another distribution of Node (which bundles npm and conflicts with Debian's).
if ! command -v npm >/dev/null 2>&1; then packages+=(nodejs npm); fi
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} Debian packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
