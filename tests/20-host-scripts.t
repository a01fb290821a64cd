#!/usr/bin/env bash
# show_gids.sh / diagnose.sh 的单元测试（伪造 sysfs，不需要虚拟机）和全仓库 shellcheck，TAP 输出
# tests/verbs-check/verbs-check.bats：verbs-check（issue 57）的规则在记下的日志上、和练习同一个说法、输出和退出码原样传过来
# tests/console-diff/normalise.bats：console-diff 的规整合并同一个版本两次运行之间看时机的不同、真的不同照样报告
set -euo pipefail
cd "$(dirname "$0")/.."
exec bats --tap --timing tests/unit/scripts.bats tests/unit/scripts-i18n.bats tests/unit/shellcheck.bats tests/verbs-check/verbs-check.bats \
    tests/console-diff/normalise.bats
