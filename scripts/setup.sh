#!/usr/bin/env bash
# Installs what LaunchPolicy needs to build: libyaml's headers and library (found through pkg-config as yaml-0.1).
# Safe to run again: it does nothing when pkg-config already finds yaml-0.1.
set -euo pipefail

if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists yaml-0.1; then
    exit 0
fi

case "$(uname -s)" in
Darwin)
    brew install libyaml pkg-config
    ;;
*)
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    echo "setup: installing libyaml-dev and pkg-config with apt-get" >&2
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends libyaml-dev pkg-config
    ;;
esac

pkg-config --exists yaml-0.1 || { echo "setup: pkg-config still cannot find yaml-0.1" >&2; exit 1; }
