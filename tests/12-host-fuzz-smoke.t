#!/usr/bin/env bash
# tests/12-host-fuzz-smoke.t - make fuzz 的缩小版（TAP；不需要虚拟机，约 10 秒）：libFuzzer 从种子出发跑 FUZZ_SMOKE_SECONDS 秒
# （默认 4），对端发来的任意字节经过 wire_decode_hello → adopt_client_options → wire_compare，
# 不许有 crash（ASan/UBSan 报告或 tests/fuzz/fuzz_hello.c 的不变量被违反）。长时间的跑法: make fuzz
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "1..1"
if ! make -s build/fuzz/fuzz_hello build/fuzz/seeds >"$T/build.log" 2>&1; then
    echo "not ok 1 - 编译 libFuzzer 目标（要 clang 和 libclang-rt-dev：bash lab/setup）"
    sed 's/^/# /' "$T/build.log"
    exit 0
fi
mkdir -p "$T/corpus"
if (cd "$T" && "$OLDPWD/build/fuzz/fuzz_hello" -max_total_time="${FUZZ_SMOKE_SECONDS:-4}" -max_len=1024 \
        corpus "$OLDPWD/build/fuzz/seeds") >"$T/fuzz.log" 2>&1; then
    echo "ok 1 - fuzz_hello: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$T/fuzz.log")，没有 crash"
else
    echo "not ok 1 - fuzz_hello 找到了让它崩溃的输入"
    grep -v '^#[0-9]' "$T/fuzz.log" | tail -40 | sed 's/^/# /'
fi
