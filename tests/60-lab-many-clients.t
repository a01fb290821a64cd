#!/usr/bin/env bash
# 多客户端服务端（--clients/--parallel）在 Soft-RoCE 实验室中：同时 8 个 + 坏客户端、传输中被杀、
# 连续 SOAK_SESSIONS 个会话不泄漏（make soak 跑 200 个）、SIGTERM/SIGINT 收尾、valgrind；TAP 输出
set -euo pipefail
cd "$(dirname "$0")/.."
LAB_PASSENV="${LAB_PASSENV:-} SOAK_SESSIONS" exec lab/run bats --tap --timing tests/lab/many.bats
