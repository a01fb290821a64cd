#!/usr/bin/env bash
# scripts/ui_lang.sh —— 脚本的界面语言（diagnose.sh、show_gids.sh、lab/demo.sh、tools/bench/report.sh 共用；规则与 C 程序的 src/console/i18n.c 相同）
#
# --lang zh|en 优先；否则 LANGUAGE（冒号分隔，第一个以 en 或 zh 开头的为准），再否则 LC_ALL、LC_MESSAGES、LANG
# 里第一个非空的: 以 en 开头是英文，其余都是中文（默认）。
# 这个文件里没有 $"…"：bash 在“解析”时就翻译 $"…"，所以它要在语言定好之前被 source。
# diagnose.sh / show_gids.sh 的英文用 bash 的 $"…"（文本域 rocev2-learn-sh，build/locale，po/sh/en.po）：
# glibc 的 gettext 只从进程环境里读 LANGUAGE（bash 给变量赋值、export 都改不了本进程的环境），且 locale 为 "C"
# 时不理它，所以 ui_lang_start 在英文而环境里的 LANGUAGE 不是 en 时带上 LANGUAGE=en 把脚本重新 exec 一次
# （exec 不 fork，只在英文时），再把 LC_ALL 设成一定有的 C.UTF-8（en_US.UTF-8 可能没生成）。
# 没有 .mo 时 gettext 原样返回中文，不报错。中文时 unset TEXTDOMAIN: $"…" 原样不动，输出逐字节不变。

# ui_lang_pick [命令行参数…] —— 结果在 UI_LANG（zh / en）
ui_lang_pick() {
    local list item v
    UI_LANG=""
    while (($# > 0)); do
        case $1 in
            --) break ;;
            --lang)
                UI_LANG=""
                if [[ ${2:-} == zh || ${2:-} == en ]]; then UI_LANG=$2; fi
                if (($# > 1)); then shift; fi
                ;;
            --lang=*)
                UI_LANG=""
                if [[ $1 == --lang=zh || $1 == --lang=en ]]; then UI_LANG=${1#--lang=}; fi
                ;;
        esac
        shift
    done
    if [[ -n $UI_LANG ]]; then return 0; fi
    list=${LANGUAGE:-}
    while [[ -n $list ]]; do
        item=${list%%:*}
        case $item in
            en*) UI_LANG=en && return 0 ;;
            zh*) UI_LANG=zh && return 0 ;;
        esac
        if [[ $list != *:* ]]; then break; fi
        list=${list#*:}
    done
    UI_LANG=zh
    for v in "${LC_ALL:-}" "${LC_MESSAGES:-}" "${LANG:-}"; do
        if [[ -n $v ]]; then
            if [[ $v == en* ]]; then UI_LANG=en; fi
            break
        fi
    done
    return 0
}

# ui_lang_setup 脚本目录 —— 按 UI_LANG 设置 $"…" 的翻译（英文时 TEXTDOMAIN 等，中文时关掉翻译）
ui_lang_setup() {
    if [[ $UI_LANG != en ]]; then
        unset TEXTDOMAIN
        return 0
    fi
    # shellcheck disable=SC2034  # TEXTDOMAIN/TEXTDOMAINDIR 是 bash 自己读的（$"…" 的翻译）
    TEXTDOMAIN=rocev2-learn-sh
    # shellcheck disable=SC2034
    case $1 in
        /*) TEXTDOMAINDIR=$1/build/locale ;;
        *) TEXTDOMAINDIR=$PWD/$1/build/locale ;;
    esac
    # C.UTF-8 不存在时（很老的系统）bash 会警告；那时 gettext 退回中文，不算错误
    { LC_ALL=C.UTF-8; } 2>/dev/null
    return 0
}

# ui_lang_start 脚本目录 调用者的路径 [脚本的命令行参数…] —— 定语言（UI_LANG）、英文时必要的话重新 exec、
# 设好 $"…" 的翻译。调用者的路径是它的 ${BASH_SOURCE[0]}：和 $0 不同 = 脚本是被 source 的（单元测试调用纯函数），
# 那时只看环境，也不 exec
ui_lang_start() {
    local dir=$1 caller=$2
    shift 2
    if [[ $caller == "$0" ]]; then
        ui_lang_pick "$@"
        if [[ $UI_LANG == en && ${LANGUAGE:-} != en ]]; then
            LANGUAGE=en exec "$BASH" "$0" "$@"
        fi
    else
        ui_lang_pick
    fi
    ui_lang_setup "$dir"
}
