#!/usr/bin/env bash
# show_gids.sh / diagnose.sh 的单元测试（伪造 sysfs，不需要虚拟机）和全仓库 shellcheck，TAP 输出
set -euo pipefail
cd "$(dirname "$0")/.."
exec bats --tap --timing tests/unit/scripts.bats tests/unit/scripts-i18n.bats tests/unit/shellcheck.bats
