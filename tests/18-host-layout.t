#!/usr/bin/env bash
# tests/18-host-layout.t - src/ 的布局（TAP，宿主机，几秒）：课程的四个文件在 src/，其余按层放在子目录里（docs/PROJECT.md 的地图）
#   1. 每个列源文件的检查都递归地看 src/，一个文件也不漏：Makefile（编进两个程序的 .c，每个都有 .o）、po/extract、
#      tests/13-host-include-graph.t、tests/14-host-reading-path.t 列出的文件和 find src 一致；16、17、50 用 grep -r / find
#   2. src/ 顶层只有卡片上的四个文件（rdma_common.h/.c、rdma_server.c、rdma_client.c）和子目录；脚本的库不在 src/
#   3. 名字不重样：没有两个源文件同名（不管在哪个目录、.c 还是 .h 算同一个名字的两半）
#   4. 长度：src/ 里没有超过 60 行的函数（从函数名那一行到右花括号）；rdma_common.c 不超过 1100 行（十二个课和它们的
#      WR 拼装、完成的检查都在这里，issue 55），别的 .c 不超过 800 行
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "1..4"
. tests/lib/tap.bash
TAP_DIAG=$T/diag  # 诊断先攒在这里，ok 打印后清空
: >"$T/diag"

# 1
find src -name '*.c' | LC_ALL=C sort >"$T/c"
find src -name '*.[ch]' | LC_ALL=C sort >"$T/ch"
bad=0
same() {  # same NAME WANT GOT
    if ! diff -u "$2" "$3" >"$T/d"; then echo "$1 漏了或多了文件:" >>"$T/diag"; cat "$T/d" >>"$T/diag"; bad=1; fi
}
make -s print-sources | LC_ALL=C sort >"$T/make"
same "Makefile (SRC_ALL)" "$T/c" "$T/make"
while read -r f; do
    o=build/obj/${f#src/}
    [[ -f ${o%.c}.o ]] || { echo "没有编译出 ${o%.c}.o（$f）" >>"$T/diag"; bad=1; }
done <"$T/c"
po/extract --list | LC_ALL=C sort >"$T/po"
same "po/extract" "$T/ch" "$T/po"
LIST_FILES=1 bash tests/13-host-include-graph.t | LC_ALL=C sort >"$T/inc"
same "tests/13-host-include-graph.t" "$T/ch" "$T/inc"
LIST_FILES=1 bash tests/14-host-reading-path.t | LC_ALL=C sort >"$T/rp"
same "tests/14-host-reading-path.t" "$T/c" "$T/rp"
for t in tests/16-host-messages.t tests/26-host-docs.t; do
    grep -q "grep -r[a-zA-Z]* --include='\*.c' .* src\b" "$t" || { echo "$t 不是递归地 grep src/" >>"$T/diag"; bad=1; }
done
grep -q "mapfile -t srcs < <(find src -name" tests/17-host-i18n.t || { echo "tests/17-host-i18n.t 不是用 find 列 src/" >>"$T/diag"; bad=1; }
ok "$bad" "every checker that lists sources sees all $(wc -l <"$T/ch") files under src/ (Makefile, po/extract, include graph, reading path, messages, i18n, docs)"

# 2
bad=0
top=$(find src -mindepth 1 -maxdepth 1 -type f -printf '%f\n' | LC_ALL=C sort | tr '\n' ' ')
[[ $top == "rdma_client.c rdma_common.c rdma_common.h rdma_server.c " ]] || { echo "src/ 顶层: $top" >>"$T/diag"; bad=1; }
if find src -type f ! -name '*.[ch]' | grep -q .; then find src -type f ! -name '*.[ch]' | sed 's/^/不是 .c\/.h: /' >>"$T/diag"; bad=1; fi
ok "$bad" "src/ holds the card's four files at the top and everything else in sub-folders; nothing but .c/.h in src/ (no shell libraries, no leftovers)"

# 3
dups=$(find src -name '*.[ch]' -printf '%f\n' | sed 's/\.[ch]$//' | sort | uniq -c | awk '$1 > 2 { print $2 }')
dups+=$(find src -name '*.[ch]' -printf '%h %f\n' | sed 's/\.[ch]$//' | sort -u | awk '{ print $2 }' | sort | uniq -d)
[[ -z $dups ]] || echo "同名的源文件: $dups" >"$T/diag"
ok "$([[ -z $dups ]]; echo $?)" "no two source files share a name across folders"

# 4
python3 - >"$T/diag" <<'PY'
import glob, re
bad, longest = 0, []
sig = re.compile(r'^[A-Za-z_][\w\s\*,]*?\b(\w+)\(')
for f in sorted(glob.glob("src/**/*.c", recursive=True)):
    lines = open(f, encoding="utf-8").read().split("\n")
    cap = 1100 if f == "src/rdma_common.c" else 800
    if len(lines) - 1 > cap:
        print("%s: %d 行（上限 %d）" % (f, len(lines) - 1, cap)); bad = 1
    cand, body = None, None
    for i, line in enumerate(lines):
        if body is None:
            m = sig.match(line)
            if m and not line.rstrip().endswith(";"):
                cand = (i, m.group(1))          # 函数名那一行（参数可能续到下面几行）
            elif line == "{" and cand is not None:
                body, cand = cand, None         # 单独一行的 "{"：函数体开始
            elif line == "" or line.rstrip().endswith(";") or line.startswith("#"):
                cand = None
        elif line == "}":
            n = i - body[0] + 1
            longest.append((n, f, body[1]))
            if n > 60:
                print("%s: %s() %d 行（上限 60）" % (f, body[1], n)); bad = 1
            body = None
longest.sort(reverse=True)
print("函数 %d 个，最长的: %s" % (len(longest), ", ".join("%s() %d" % (nm, n) for n, f, nm in longest[:3])))
print("OK" if not bad else "FAIL")
PY
grep -qx OK "$T/diag"
st=$?
grep '^函数' "$T/diag" | sed 's/^/# /'
ok "$st" "no function in src/ over 60 lines; rdma_common.c <= 1100 lines, every other .c <= 800"
