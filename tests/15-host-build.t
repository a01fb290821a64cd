#!/usr/bin/env bash
# tests/15-host-build.t - 按 C 用户的习惯编译（TAP 输出；不需要虚拟机，约 30 秒）
#   1. make CFLAGS=-O0（使用者自己的 CFLAGS）：项目必需的参数仍在每条编译命令里，零警告
#   2. make CC=clang：零警告（-Werror 下编译通过）
#   3. make CC=gcc CFLAGS="-O2 -Wno-error"：使用者的参数排在项目参数之后（-Wno-error 能生效）
#   4. make asan 的输出在 build/asan/ 里，不碰普通版本的 build/obj
#   5. libibverbs 太旧（rdma-core < v32，没有 ibv_query_gid_table）时 make 在编译前就说清楚
#   6. 头文件依赖是编译器生成的（-MMD -MP）：改 src/verbs/gid.h 时 make 重编的 .c 正好是 cc -MM 说包含它的那些，不是全部
#   7. 单元测试的模块不是手写的列表：make print-pure 列出链接器从 libroce-core.a 取的模块，它们的 .o 都不调用
#      libibverbs/librdmacm；调用的模块（比如 verbs/datapath）不在里面
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
REQUIRED=(-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror)
. tests/lib/tap.bash
TAP_DIAG=$T/diag  # 诊断先攒在这里，ok 打印后清空
: >"$T/diag"
echo "1..7"

# 编译命令（含 " -c "）和链接命令（含 " -o build..." 且不含 -c）各自必须带上全部必需参数
check_flags() {  # check_flags LOG
    local line f bad=0 count=0
    while IFS= read -r line; do
        count=$((count + 1))
        for f in "${REQUIRED[@]}"; do
            if [[ " $line " != *" $f "* ]]; then
                echo "缺少 $f: $line" >>"$T/diag"
                bad=1
            fi
        done
    done < <(grep -E '^(cc|gcc|clang)[[:space:]].* -c ' "$1")
    if ((count < 10)); then echo "只看到 $count 条编译命令" >>"$T/diag"; bad=1; fi
    return "$bad"
}

no_warnings() {  # no_warnings LOG
    if grep -E 'warning:|error:' "$1" >>"$T/diag"; then return 1; fi
}

build() {  # build NAME make参数...（NAME 也是输出目录名）
    local name=$1
    shift
    if ! make --no-print-directory BUILD="$T/$name" "$@" all unit >"$T/$name.log" 2>&1; then
        echo "make $* 失败:" >>"$T/diag"
        tail -20 "$T/$name.log" >>"$T/diag"
        return 1
    fi
}

bad=0
build o0 CFLAGS=-O0 || bad=1
check_flags "$T/o0.log" || bad=1
no_warnings "$T/o0.log" || bad=1
grep -qE ' -O0 -c ' "$T/o0.log" || { echo "使用者的 -O0 没有出现在编译命令里" >>"$T/diag"; bad=1; }
ok "$bad" "make CFLAGS=-O0 keeps -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror on every compile, zero warnings"

bad=0
if ! command -v clang >/dev/null; then
    echo "找不到 clang（bash lab/setup 会安装）" >>"$T/diag"
    bad=1
else
    build clang CC=clang || bad=1
    check_flags "$T/clang.log" || bad=1
    no_warnings "$T/clang.log" || bad=1
    "$T/clang/tests/unit_tests" >"$T/clang-unit.log" 2>&1 || { tail -5 "$T/clang-unit.log" >>"$T/diag"; bad=1; }
fi
ok "$bad" "make CC=clang builds programs and unit tests with zero warnings under -Werror; its unit tests pass"

bad=0
make --no-print-directory -n -B BUILD="$T/order" CC=gcc CFLAGS="-O2 -Wno-error" all >"$T/order.log" 2>&1 || bad=1
while IFS= read -r line; do
    # 在一行里 -Wno-error 必须出现在 -Werror 之后
    rest=${line#* -Werror }
    if [[ $rest == "$line" || $rest != *" -Wno-error"* ]]; then
        echo "-Wno-error 不在 -Werror 之后: $line" >>"$T/diag"
        bad=1
    fi
done < <(grep -E '^gcc .* -c ' "$T/order.log")
grep -qE '^gcc .* -c ' "$T/order.log" || { echo "make -n 没有打印 gcc 编译命令" >>"$T/diag"; bad=1; }
ok "$bad" "user CFLAGS come after the project's flags (a deliberate -Wno-error still works)"

bad=0
make --no-print-directory -n -B BUILD="$T/sep" asan >"$T/asan.log" 2>&1 || bad=1
if grep -E ' -o [^ ]*' "$T/asan.log" | grep -vE -- "-o $T/sep/asan/" >>"$T/diag"; then
    echo "make asan 把文件写到了 $T/sep/asan/ 以外" >>"$T/diag"
    bad=1
fi
grep -q -- '-fsanitize=address,undefined' "$T/asan.log" || { echo "make asan 没有用 -fsanitize=address,undefined" >>"$T/diag"; bad=1; }
ok "$bad" "make asan builds with -fsanitize=address,undefined into BUILD/asan/ only"

# ---------- 5. 依赖版本检查：用一个假的 libibverbs.pc（rdma-core v31）放在 PKG_CONFIG_PATH 最前面 ----------
mkdir -p "$T/pc"
printf 'Name: libibverbs\nDescription: fake\nVersion: 1.10.31.0\nLibs: -libverbs\nCflags:\n' >"$T/pc/libibverbs.pc"
bad=0
if PKG_CONFIG_PATH=$T/pc make -s BUILD="$T/old" >"$T/old.log" 2>&1; then
    echo "libibverbs 1.10.31 时 make 居然成功了" >>"$T/diag"; bad=1
fi
grep -q 'rdma-core ≥ v32' "$T/old.log" || { echo "没有说需要 rdma-core ≥ v32:"; cat "$T/old.log"; } >>"$T/diag"
grep -q 'rdma-core ≥ v32' "$T/old.log" || bad=1
[[ -e $T/old/obj ]] && { echo "版本不够时仍然开始编译了"; bad=1; } >>"$T/diag"
if ! make -s check-deps >"$T/new.log" 2>&1; then cat "$T/new.log" >>"$T/diag"; bad=1; fi
ok "$bad" "make refuses libibverbs older than rdma-core v32 with a clear message (and accepts $(pkg-config --modversion libibverbs))"


# ---------- 6. 头文件依赖：make -n -W 头文件（假装它刚改过，不碰文件） ----------
bad=0
H=src/verbs/gid.h
make -s all unit >"$T/dep-build.log" 2>&1 || { cat "$T/dep-build.log" >>"$T/diag"; bad=1; }
make -n -W "$H" all unit 2>&1 | grep -E '^(cc|gcc|clang) .* -c ' | grep -oE '(src|tests/unit)/[^ ]+\.c' | LC_ALL=C sort -u >"$T/rebuilt"
for c in $(find src tests/unit -name '*.c' | LC_ALL=C sort); do
    # shellcheck disable=SC2046,SC1003  # pkg-config 的参数要拆开；tr 删的是续行的反斜杠
    cc -MM $(pkg-config --cflags libibverbs 2>/dev/null) -D_GNU_SOURCE -Isrc "$c" 2>/dev/null | tr -d '\\' | tr ' ' '\n' | grep -qx "$H" && echo "$c"
done | LC_ALL=C sort >"$T/includers"
if ! diff -u "$T/includers" "$T/rebuilt" >>"$T/diag"; then echo "改 $H 后 make 重编的（+）和包含它的（-）不一样" >>"$T/diag"; bad=1; fi
all=$(find src tests/unit -name '*.c' | wc -l)
(($(wc -l <"$T/rebuilt") > 0 && $(wc -l <"$T/rebuilt") < all)) || { echo "重编了 $(wc -l <"$T/rebuilt") / $all 个 .c" >>"$T/diag"; bad=1; }
ok "$bad" "header dependencies are generated: touching $H rebuilds exactly its $(wc -l <"$T/rebuilt") includers (of $all .c files)"

# ---------- 7. 单元测试链接的模块：链接器按需取，取到的都不调用 libibverbs/librdmacm ----------
bad=0
make -s print-pure >"$T/pure" 2>>"$T/diag" || bad=1
(($(wc -l <"$T/pure") >= 10)) || { echo "print-pure 只列出 $(wc -l <"$T/pure") 个模块" >>"$T/diag"; bad=1; }
verbs_users=0
for c in $(make -s print-sources); do
    m=${c#src/}; m=${m%.c}
    o=build/obj/$m.o
    if nm -u "$o" | grep -qE ' U (ibv_|rdma_)'; then
        verbs_users=$((verbs_users + 1))
        grep -qx "$m" "$T/pure" && { echo "$m 调用 libibverbs/librdmacm，却被链接进了单元测试" >>"$T/diag"; bad=1; }
    fi
done
((verbs_users > 0)) || { echo "没有找到任何调用 ibv_* 的模块（nm 没看到？）" >>"$T/diag"; bad=1; }
ok "$bad" "unit tests link $(wc -l <"$T/pure") modules picked by the linker, none calls libibverbs/librdmacm ($verbs_users modules do and are left out)"
