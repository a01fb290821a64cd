#!/usr/bin/env bash
# 多客户端服务端（--clients/--parallel）在 Soft-RoCE 实验室中：同时 8 个 + 坏客户端、传输中被杀、
# valgrind 的慢用例（标 memcheck）在 make memcheck 里；这里只跑一个 valgrind 冒烟（pair.bats）
# 连续 SOAK_SESSIONS 个会话不泄漏（make soak 跑 200 个）、SIGTERM/SIGINT 收尾、valgrind；TAP 输出
set -euo pipefail
cd "$(dirname "$0")/.."
LAB_PASSENV="${LAB_PASSENV:-} SOAK_SESSIONS" exec lab/run bats --tap --timing --filter-tags '!memcheck' tests/lab/many.bats
