#!/usr/bin/env bash
# --bench lat|bw 与 --cq event（bench.bats，小轮数，和 perftest 的缩小版对比），以及多客户端服务端（many.bats：
# 同时 8 个 + 坏客户端、有敌意的 HELLO、传输中被杀、连续 SOAK_SESSIONS 个会话不泄漏（make soak 跑 200 个）、SIGTERM/SIGINT 收尾）
# 在 Soft-RoCE 实验室中，一次启动，TAP 输出。valgrind 的用例（标 memcheck）在 make memcheck 里
set -euo pipefail
cd "$(dirname "$0")/.."
LAB_PASSENV="${LAB_PASSENV:-} SOAK_SESSIONS" exec lab/run bats --tap --timing --filter-tags '!memcheck' tests/lab/bench.bats tests/lab/many.bats
