#!/usr/bin/env bash
# tests/19-layers.t - 层次（TAP，宿主机，1 秒）：课程的四个文件不依赖模式和插桩（docs/PROJECT.md 的地图）
#   模式 = ops/ bench/ clients/ cm/ ud/ counters/ inject/，插桩 = trace/ 里除 trace.c 以外的（trace_ev、trace_hooks），
#   以及 inject/ 和 trace/ 里的一切名字（trace_*、tj_*、inject_*）。按目标文件里真正引用的符号（nm）检查：
#   在源码里自己写一行 extern 声明绕不过去。
#   1. rdma_common.o 不引用模式和插桩里定义的任何符号（trace 和注入只经挂钩表 struct rdma_hooks 进来）
#   2. 两个驱动程序（rdma_server.o、rdma_client.o）不引用 trace 和注入的符号（它们可以调用模式的入口：多客户端、--cm、数据面）
#   3. rdma_common.c/.h 不 #include 模式和插桩的头文件
#   需要 make 编译出的 build/obj/（make test 先 make all）。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OBJ=${BUILD:-build}/obj
echo "1..3"
n=0
ok() { n=$((n + 1)); if [[ $1 == 0 ]]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
[[ -f $OBJ/rdma_common.o ]] || make -s all >/dev/null
MODES=(ops bench clients cm ud counters inject)
INSTR=(trace/trace_ev trace/trace_hooks)
defined() { nm --defined-only -g "$@" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u; }
undef() { nm -u "$1" | awk '{ print $2 }' | sort -u; }
mode_objs=()   # 现在的源文件编出来的（build/ 里可能还留着改名前的旧 .o）
for m in "${MODES[@]}"; do while read -r c; do mode_objs+=("$OBJ/${c#src/}"); done < <(find "src/$m" -name '*.c' | sed 's/\.c$/.o/'); done
for i in "${INSTR[@]}"; do mode_objs+=("$OBJ/$i.o"); done
defined "${mode_objs[@]}" >/tmp/layers-mode.$$
trap 'rm -f /tmp/layers-*.$$' EXIT

# 1
bad=$( { comm -12 <(undef "$OBJ/rdma_common.o") /tmp/layers-mode.$$; undef "$OBJ/rdma_common.o" | grep -E '^(trace_|tj_|inject_)'; } | sort -u)
ok "$([[ -z $bad ]]; echo $?)" "rdma_common.o references nothing defined in the modes or the instrumentation ($(undef "$OBJ/rdma_common.o" | wc -l) symbols used)"
[[ -z $bad ]] || printf '%s\n' "$bad" | sed 's/^/#   /'

# 2
mapfile -t ti < <(find src/trace src/inject -name '*.c' | sed "s#^src/#$OBJ/#; s/\.c$/.o/")
defined "${ti[@]}" >/tmp/layers-ti.$$
bad=""
for d in rdma_server rdma_client; do
    b=$( { comm -12 <(undef "$OBJ/$d.o") /tmp/layers-ti.$$; undef "$OBJ/$d.o" | grep -E '^(trace_|tj_|inject_)'; } | sort -u)
    [[ -z $b ]] || bad+="$d.o: $b "
done
ok "$([[ -z $bad ]]; echo $?)" "the drivers reference no trace or inject symbol"
[[ -z $bad ]] || echo "#   $bad"

# 3
pat='^#include "('"$(IFS='|'; echo "${MODES[*]}")"')/|^#include "trace/trace_(ev|hooks)\.h"'
bad=$(grep -nE "$pat" src/rdma_common.c src/rdma_common.h)
ok "$([[ -z $bad ]]; echo $?)" "rdma_common.c/.h include no header of the modes or the instrumentation"
[[ -z $bad ]] || printf '%s\n' "$bad" | sed 's/^/#   /'
