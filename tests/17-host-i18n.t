#!/usr/bin/env bash
# tests/17-host-i18n.t - 英文界面（issue 28）：每句中文都交给了 gettext、每句都有英文、语言按 --lang 和环境变量选（TAP，宿主机，几秒）
# 跑之前要有 make（build/rdma_server 和 build/locale/en/LC_MESSAGES/rocev2-learn.mo）；make test 会先编译。
# 这台机器（和一台新的 Debian）没有生成 en_US.UTF-8：英文照样要出来（src/console/i18n.c 换用 C.UTF-8）。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
echo "1..9"
. tests/lib/tap.bash
has_cjk() { grep -qP '[\x{3000}-\x{303f}\x{4e00}-\x{9fff}\x{ff00}-\x{ffef}]'; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
S=build/rdma_server
C=build/rdma_client

# 1. 源码里没有漏掉 _() 的中文字符串（漏了的话 xgettext 抽不到，英文运行时会冒出中文）
mapfile -t srcs < <(find src -name '*.[ch]' | sort)
if out=$(python3 tests/i18n/check-src.py "${srcs[@]}" 2>&1); then
    pass "every Chinese string literal in src/ is marked for translation (_, N_ or P_)"
else
    notok "Chinese string literals in src/ not marked for translation" "$out"
fi

# 2. po/en.po：每条都翻译了、没有 fuzzy、msgstr 里没有中文、分隔符和换行对得上；msgfmt --check 通过
if out=$(python3 tests/i18n/check-po.py po/en.po 2>&1) && stat=$(msgfmt --check --statistics -o /dev/null po/en.po 2>&1); then
    pass "po/en.po complete and msgfmt --check clean ($stat)"
else
    notok "po/en.po has untranslated, fuzzy or malformed entries" "$out" "${stat:-}"
fi

# 3. 从现在的源码抽出来的句子和 en.po 里的一一对应（新加一句中文没翻译、或者 en.po 里留着已删掉的句子，这里都失败；make po 更新）
if ! po/extract --pot "$tmp/now.pot" 2>"$tmp/err"; then
    notok "po/extract --pot failed" "$(cat "$tmp/err")"
else
    msgids() { python3 -c '
import sys, re
text = open(sys.argv[1], encoding="utf-8").read()
for block in text.split("\n\n"):
    if re.search(r"^#~", block, re.M): continue
    m = re.search(r"^msgid ((?:\".*\"\n?)+)", block, re.M)
    if m:
        s = "".join(eval(x) for x in m.group(1).split("\n") if x.startswith("\""))
        if s: print(repr(s))' "$1" | sort; }
    missing=$(comm -23 <(msgids "$tmp/now.pot") <(msgids po/en.po))
    stale=$(comm -13 <(msgids "$tmp/now.pot") <(msgids po/en.po))
    if [[ -z $missing && -z $stale ]]; then
        pass "po/en.po has exactly the $(msgids "$tmp/now.pot" | wc -l) messages of the current sources"
    else
        notok "po/en.po out of step with the sources (run make po, then translate)" \
            "in the sources, not in en.po:" "$missing" "in en.po, no longer in the sources:" "$stale"
    fi
fi

# 4. LANG=en_US.UTF-8（这台机器上没有这个 locale）：-h 是英文，一个中文字也没有
if [[ ! -f build/locale/en/LC_MESSAGES/rocev2-learn.mo ]]; then
    notok "build/locale/en/LC_MESSAGES/rocev2-learn.mo missing (make)"
else
    for prog in "$S" "$C"; do env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=en_US.UTF-8 "$prog" -h >"$tmp/${prog##*/}.en" 2>&1; done
    if grep -q '^Usage: ' "$tmp/rdma_server.en" && grep -q '^Usage: ' "$tmp/rdma_client.en" &&
        ! cat "$tmp/rdma_server.en" "$tmp/rdma_client.en" | has_cjk; then
        pass "LANG=en_US.UTF-8 (locale not generated): -h of both programs in English, no Chinese character"
    else
        notok "-h under LANG=en_US.UTF-8 is not all English" "$(grep -nP '[\x{4e00}-\x{9fff}]' "$tmp"/*.en | head -5)"
    fi
fi

# 5. 配置回显（--dry-run）也全是英文：服务端、客户端、带 --cm、--bench、--qp ud 的几种
bad=""
for args in "$S --dry-run" "$S --dry-run --cm --op write -q 4" "$S --dry-run --bench bw --op read" "$S --dry-run --qp ud" \
    "$C 10.0.0.1 --dry-run --op fetch_add" "$C 10.0.0.1 --dry-run --srq -q 4 --cq event"; do
    # shellcheck disable=SC2086
    if ! env -u LANGUAGE -u LC_ALL LANG=en_US.UTF-8 $args >"$tmp/dry" 2>&1 || has_cjk <"$tmp/dry"; then
        bad+="$args: $(grep -P '[\x{4e00}-\x{9fff}]' "$tmp/dry" | head -2)"$'\n'
    fi
done
if [[ -z $bad ]]; then pass "--dry-run configuration echo in English for 6 option sets"; else notok "--dry-run not all English" "$bad"; fi

# 6. 选语言的规则：LANGUAGE=en（locale 是 C.UTF-8）→ 英文；LC_ALL 比 LANG 优先；--lang zh 盖过环境变量，输出和默认逐字节相同
env -u LANGUAGE -u LC_ALL -u LC_MESSAGES -u LANG "$S" -h >"$tmp/default" 2>&1
LANGUAGE=en LANG=C.UTF-8 "$S" -h >"$tmp/language" 2>&1
env -u LANGUAGE LC_ALL=C.UTF-8 LANG=en_US.UTF-8 "$S" -h >"$tmp/lcall" 2>&1
env -u LANGUAGE -u LC_ALL LANG=en_US.UTF-8 "$S" --lang zh -h >"$tmp/langzh" 2>&1
env -u LANGUAGE -u LC_ALL -u LANG "$S" --lang=en -h >"$tmp/langen" 2>&1
if has_cjk <"$tmp/default" && cmp -s "$tmp/default" "$tmp/lcall" && cmp -s "$tmp/default" "$tmp/langzh" &&
    grep -q '^Usage: ' "$tmp/language" && cmp -s "$tmp/language" "$tmp/langen"; then
    pass "language: LANGUAGE=en, --lang=en -> English; LC_ALL=C.UTF-8 beats LANG=en_US; --lang zh beats LANG=en_US (byte-identical to the default)"
else
    notok "language selection wrong" "$(head -2 "$tmp/default" "$tmp/language" "$tmp/lcall" "$tmp/langzh" "$tmp/langen")"
fi

# 7. --lang 写错：退出 2，消息用环境变量选的语言
env -u LANGUAGE -u LC_ALL -u LANG "$S" --lang fr >"$tmp/fr.zh" 2>&1; rc_zh=$?
env -u LANGUAGE -u LC_ALL LANG=en_US.UTF-8 "$S" --lang fr >"$tmp/fr.en" 2>&1; rc_en=$?
if ((rc_zh == 2 && rc_en == 2)) && grep -q "错误: --lang 无效: 'fr'" "$tmp/fr.zh" && grep -q "^error: .*--lang.*'fr'" "$tmp/fr.en"; then
    pass "--lang fr: exit 2 in both languages, message names the value"
else
    notok "--lang fr not refused cleanly (rc $rc_zh/$rc_en)" "$(cat "$tmp/fr.zh" "$tmp/fr.en")"
fi

# 8. 英文的参数错误带英文提示（错误和提示之间的分隔 \037 在译文里也在）
env -u LANGUAGE -u LC_ALL LANG=en_US.UTF-8 "$C" >"$tmp/noserver" 2>&1; rc=$?
if ((rc == 2)) && grep -q '^error: ' "$tmp/noserver" && grep -q '^hint: ' "$tmp/noserver" && ! has_cjk <"$tmp/noserver"; then
    pass "client without a server address in English: error + hint lines, exit 2"
else
    notok "client usage error in English" "rc=$rc" "$(cat "$tmp/noserver")"
fi

# 9. 没有消息目录（只拷了可执行文件）：英文请求不报错，退回中文
mkdir -p "$tmp/bin" && cp "$S" "$tmp/bin/"
env -u LANGUAGE -u LC_ALL LANG=en_US.UTF-8 "$tmp/bin/rdma_server" -h >"$tmp/nomo" 2>&1; rc=$?
if ((rc == 0)) && grep -q '^用法: ' "$tmp/nomo"; then
    pass "no catalog beside the executable: English request falls back to Chinese, exit 0"
else
    notok "missing catalog not handled" "rc=$rc" "$(head -3 "$tmp/nomo")"
fi
