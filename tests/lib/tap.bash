# shellcheck shell=bash
# tests/lib/tap.bash - 每个用 shell 写的 TAP 测试共用的几个函数（. tests/lib/tap.bash；tests/22-host-names.t 检查没有别的副本）
#   plan N                 打印计划 1..N
#   ok 状态 描述 [诊断文件]  状态为 0 是 ok，否则 not ok，并把诊断打印成 # 行：诊断文件，或者 TAP_DIAG 指向的文件
#                          （设了 TAP_DIAG 时，每次 ok 之后清空它，下一项重新攒）
#   pass 描述              ok 0 描述
#   notok 描述 [行...]      not ok，后面的参数作为诊断行
#   diag 文字...            设了 TAP_DIAG：追加到那个文件，留给下一个 ok；没设：马上打印成 # 行
#   diag_file 文件...       把文件的每一行打印成 # 行
#   tap_lines 文件 [前缀]   检查脚本的 "ok …"/"not ok …" 行各变成一项（见最后）
#   tap_ok                 到现在为止没有 not ok 时返回 0（脚本最后 tap_ok 一下，退出码就跟着结果走）
# 计数器是全局的 n（有的脚本在跳过或分组时自己往后数）和 tap_failed。
n=${n:-0}
tap_failed=${tap_failed:-0}

plan() { echo "1..$1"; }

ok() {
    local file=${3:-${TAP_DIAG:-}}
    n=$((n + 1))
    if [[ $1 == 0 ]]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        tap_failed=$((tap_failed + 1))
        [[ -n $file && -f $file ]] && sed 's/^/# /' "$file"
    fi
    [[ -z ${TAP_DIAG:-} ]] || : >"$TAP_DIAG"
    return 0
}

pass() { ok 0 "$1"; }

notok() {
    local what=$1
    shift
    n=$((n + 1))
    tap_failed=$((tap_failed + 1))
    echo "not ok $n - $what"
    (($# == 0)) || printf '%s\n' "$@" | sed 's/^/#   /'
    [[ -z ${TAP_DIAG:-} ]] || : >"$TAP_DIAG"
    return 0
}

diag() {
    if [[ -n ${TAP_DIAG:-} ]]; then printf '%s\n' "$*" >>"$TAP_DIAG"; else printf '%s\n' "$*" | sed 's/^/# /'; fi
}

diag_file() { sed 's/^/# /' "$@"; }

tap_ok() { ((tap_failed == 0)); }

# tap_lines 文件 [前缀]：检查脚本（tests/lib/tap.py 的 Checks）打印的 "ok …" / "not ok …" 行各变成一项，其余行是诊断
tap_lines() {
    local l
    while IFS= read -r l; do
        case $l in
            "ok "*) ok 0 "${2:-}${l#ok }" ;;
            "not ok "*) ok 1 "${2:-}${l#not ok }" ;;
            *) echo "# $l" ;;
        esac
    done <"$1"
}
