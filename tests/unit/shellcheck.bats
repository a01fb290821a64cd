#!/usr/bin/env bats
# 对仓库里的每个 shell 脚本跑 shellcheck，每个脚本一个测试。
#
# 脚本是动态找出来的（加脚本不用改这个文件）:
#   顶层 *.sh、src/*.sh（脚本共用的 GID 规则）、lab/ 下以 bash shebang 开头的文件、.ci/run、tests/*.t、
#   tests/**/*.bats、tests/**/*.bash、tools/**/*.bash（工具共用的函数）
# bats 1.8 的测试列表是静态的（不能在运行时生成 @test），所以这里预留了
# MAX_SLOTS 个“槽位”测试，第 N 个测试检查第 N 个脚本，测试名里带脚本路径；
# 多出来的槽位显示为 skip。最后一个测试保证脚本数不超过槽位数，不会漏检。
# 所有文件都用 `shellcheck -s bash -x` 检查（shellcheck 0.7+ 认识 bats 的 @test 语法）；
# .bats 文件额外排除 SC2034/SC2153（经 `load` 共享的变量）和 SC2030/SC2031（@test 被当成子 shell），都是误报。

REPO=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
# 槽位数 = 这个文件里槽位测试的个数（数出来，不写死：写死的数和测试个数对不上时，多出来的脚本会没人检查）
MAX_SLOTS=$(grep -c "^@test \"shellcheck \${SCRIPTS\\[" "$BATS_TEST_FILENAME")

# 找出所有 shell 脚本（相对仓库根目录的路径），结果在 SCRIPTS 数组
find_scripts() {
    local f first
    SCRIPTS=()
    shopt -s nullglob globstar
    for f in "$REPO"/*.sh "$REPO"/scripts/*.sh; do
        SCRIPTS+=("${f#"$REPO"/}")
    done
    for f in "$REPO"/lab/* "$REPO"/po/extract "$REPO"/po/*/extract "$REPO"/tools/**/*; do
        [[ -f $f ]] || continue
        first=""
        { read -r first <"$f"; } 2>/dev/null || true
        if [[ $first =~ ^#!.*[/[:space:]]bash([[:space:]]|$) ]]; then
            SCRIPTS+=("${f#"$REPO"/}")
        fi
    done
    if [[ -f $REPO/.ci/run ]]; then SCRIPTS+=(.ci/run); fi
    for f in "$REPO"/tests/*.t "$REPO"/tests/**/*.bats "$REPO"/tests/**/*.bash "$REPO"/tests/**/*.sh "$REPO"/tools/**/*.bash; do
        SCRIPTS+=("${f#"$REPO"/}")
    done
    shopt -u nullglob globstar
}
find_scripts

# 检查第 $1 个脚本（从 0 开始）
check_slot() {
    local n=$1
    if ((n >= ${#SCRIPTS[@]})); then
        skip "没有第 $((n + 1)) 个脚本（共 ${#SCRIPTS[@]} 个）"
    fi
    command -v shellcheck >/dev/null || skip "没有安装 shellcheck"
    cd "$REPO" || return 1
    local -a opts=(-s bash -x)
    # .bats 里的误报排除掉，其余检查照常:
    #   SC2034/SC2153: 变量经 `load helpers` 共享，shellcheck 跟不进 load
    #   SC2030/SC2031: shellcheck 把每个 @test 当成子 shell，测试里给全局变量赋值就会提示
    if [[ ${SCRIPTS[n]} == *.bats ]]; then
        opts+=(--exclude=SC2034 --exclude=SC2153 --exclude=SC2030 --exclude=SC2031)
    fi
    run shellcheck "${opts[@]}" "${SCRIPTS[n]}"
    if ((status != 0)); then
        echo "$output"
        return 1
    fi
}

@test "shellcheck ${SCRIPTS[0]:-(槽位1 空)}" { check_slot 0; }
@test "shellcheck ${SCRIPTS[1]:-(槽位2 空)}" { check_slot 1; }
@test "shellcheck ${SCRIPTS[2]:-(槽位3 空)}" { check_slot 2; }
@test "shellcheck ${SCRIPTS[3]:-(槽位4 空)}" { check_slot 3; }
@test "shellcheck ${SCRIPTS[4]:-(槽位5 空)}" { check_slot 4; }
@test "shellcheck ${SCRIPTS[5]:-(槽位6 空)}" { check_slot 5; }
@test "shellcheck ${SCRIPTS[6]:-(槽位7 空)}" { check_slot 6; }
@test "shellcheck ${SCRIPTS[7]:-(槽位8 空)}" { check_slot 7; }
@test "shellcheck ${SCRIPTS[8]:-(槽位9 空)}" { check_slot 8; }
@test "shellcheck ${SCRIPTS[9]:-(槽位10 空)}" { check_slot 9; }
@test "shellcheck ${SCRIPTS[10]:-(槽位11 空)}" { check_slot 10; }
@test "shellcheck ${SCRIPTS[11]:-(槽位12 空)}" { check_slot 11; }
@test "shellcheck ${SCRIPTS[12]:-(槽位13 空)}" { check_slot 12; }
@test "shellcheck ${SCRIPTS[13]:-(槽位14 空)}" { check_slot 13; }
@test "shellcheck ${SCRIPTS[14]:-(槽位15 空)}" { check_slot 14; }
@test "shellcheck ${SCRIPTS[15]:-(槽位16 空)}" { check_slot 15; }
@test "shellcheck ${SCRIPTS[16]:-(槽位17 空)}" { check_slot 16; }
@test "shellcheck ${SCRIPTS[17]:-(槽位18 空)}" { check_slot 17; }
@test "shellcheck ${SCRIPTS[18]:-(槽位19 空)}" { check_slot 18; }
@test "shellcheck ${SCRIPTS[19]:-(槽位20 空)}" { check_slot 19; }
@test "shellcheck ${SCRIPTS[20]:-(槽位21 空)}" { check_slot 20; }
@test "shellcheck ${SCRIPTS[21]:-(槽位22 空)}" { check_slot 21; }
@test "shellcheck ${SCRIPTS[22]:-(槽位23 空)}" { check_slot 22; }
@test "shellcheck ${SCRIPTS[23]:-(槽位24 空)}" { check_slot 23; }
@test "shellcheck ${SCRIPTS[24]:-(槽位25 空)}" { check_slot 24; }
@test "shellcheck ${SCRIPTS[25]:-(槽位26 空)}" { check_slot 25; }
@test "shellcheck ${SCRIPTS[26]:-(槽位27 空)}" { check_slot 26; }
@test "shellcheck ${SCRIPTS[27]:-(槽位28 空)}" { check_slot 27; }
@test "shellcheck ${SCRIPTS[28]:-(槽位29 空)}" { check_slot 28; }
@test "shellcheck ${SCRIPTS[29]:-(槽位30 空)}" { check_slot 29; }
@test "shellcheck ${SCRIPTS[30]:-(槽位31 空)}" { check_slot 30; }
@test "shellcheck ${SCRIPTS[31]:-(槽位32 空)}" { check_slot 31; }
@test "shellcheck ${SCRIPTS[32]:-(槽位33 空)}" { check_slot 32; }
@test "shellcheck ${SCRIPTS[33]:-(槽位34 空)}" { check_slot 33; }
@test "shellcheck ${SCRIPTS[34]:-(槽位35 空)}" { check_slot 34; }
@test "shellcheck ${SCRIPTS[35]:-(槽位36 空)}" { check_slot 35; }
@test "shellcheck ${SCRIPTS[36]:-(槽位37 空)}" { check_slot 36; }
@test "shellcheck ${SCRIPTS[37]:-(槽位38 空)}" { check_slot 37; }
@test "shellcheck ${SCRIPTS[38]:-(槽位39 空)}" { check_slot 38; }
@test "shellcheck ${SCRIPTS[39]:-(槽位40 空)}" { check_slot 39; }
@test "shellcheck ${SCRIPTS[40]:-(槽位41 空)}" { check_slot 40; }
@test "shellcheck ${SCRIPTS[41]:-(槽位42 空)}" { check_slot 41; }
@test "shellcheck ${SCRIPTS[42]:-(槽位43 空)}" { check_slot 42; }
@test "shellcheck ${SCRIPTS[43]:-(槽位44 空)}" { check_slot 43; }
@test "shellcheck ${SCRIPTS[44]:-(槽位45 空)}" { check_slot 44; }
@test "shellcheck ${SCRIPTS[45]:-(槽位46 空)}" { check_slot 45; }
@test "shellcheck ${SCRIPTS[46]:-(槽位47 空)}" { check_slot 46; }
@test "shellcheck ${SCRIPTS[47]:-(槽位48 空)}" { check_slot 47; }
@test "shellcheck ${SCRIPTS[48]:-(槽位49 空)}" { check_slot 48; }
@test "shellcheck ${SCRIPTS[49]:-(槽位50 空)}" { check_slot 49; }
@test "shellcheck ${SCRIPTS[50]:-(槽位51 空)}" { check_slot 50; }
@test "shellcheck ${SCRIPTS[51]:-(槽位52 空)}" { check_slot 51; }
@test "shellcheck ${SCRIPTS[52]:-(槽位53 空)}" { check_slot 52; }
@test "shellcheck ${SCRIPTS[53]:-(槽位54 空)}" { check_slot 53; }
@test "shellcheck ${SCRIPTS[54]:-(槽位55 空)}" { check_slot 54; }
@test "shellcheck ${SCRIPTS[55]:-(槽位56 空)}" { check_slot 55; }
@test "shellcheck ${SCRIPTS[56]:-(槽位57 空)}" { check_slot 56; }
@test "shellcheck ${SCRIPTS[57]:-(槽位58 空)}" { check_slot 57; }
@test "shellcheck ${SCRIPTS[58]:-(槽位59 空)}" { check_slot 58; }
@test "shellcheck ${SCRIPTS[59]:-(槽位60 空)}" { check_slot 59; }
@test "shellcheck ${SCRIPTS[60]:-(槽位61 空)}" { check_slot 60; }
@test "shellcheck ${SCRIPTS[61]:-(槽位62 空)}" { check_slot 61; }
@test "shellcheck ${SCRIPTS[62]:-(槽位63 空)}" { check_slot 62; }
@test "shellcheck ${SCRIPTS[63]:-(槽位64 空)}" { check_slot 63; }
@test "shellcheck ${SCRIPTS[64]:-(槽位65 空)}" { check_slot 64; }
@test "shellcheck ${SCRIPTS[65]:-(槽位66 空)}" { check_slot 65; }
@test "shellcheck ${SCRIPTS[66]:-(槽位67 空)}" { check_slot 66; }
@test "shellcheck ${SCRIPTS[67]:-(槽位68 空)}" { check_slot 67; }
@test "shellcheck ${SCRIPTS[68]:-(槽位69 空)}" { check_slot 68; }
@test "shellcheck ${SCRIPTS[69]:-(槽位70 空)}" { check_slot 69; }
@test "shellcheck ${SCRIPTS[70]:-(槽位71 空)}" { check_slot 70; }
@test "shellcheck ${SCRIPTS[71]:-(槽位72 空)}" { check_slot 71; }
@test "shellcheck ${SCRIPTS[72]:-(槽位73 空)}" { check_slot 72; }
@test "shellcheck ${SCRIPTS[73]:-(槽位74 空)}" { check_slot 73; }
@test "shellcheck ${SCRIPTS[74]:-(槽位75 空)}" { check_slot 74; }
@test "shellcheck ${SCRIPTS[75]:-(槽位76 空)}" { check_slot 75; }
@test "shellcheck ${SCRIPTS[76]:-(槽位77 空)}" { check_slot 76; }
@test "shellcheck ${SCRIPTS[77]:-(槽位78 空)}" { check_slot 77; }
@test "shellcheck ${SCRIPTS[78]:-(槽位79 空)}" { check_slot 78; }
@test "shellcheck ${SCRIPTS[79]:-(槽位80 空)}" { check_slot 79; }
@test "shellcheck ${SCRIPTS[80]:-(槽位81 空)}" { check_slot 80; }
@test "shellcheck ${SCRIPTS[81]:-(槽位82 空)}" { check_slot 81; }
@test "shellcheck ${SCRIPTS[82]:-(槽位83 空)}" { check_slot 82; }
@test "shellcheck ${SCRIPTS[83]:-(槽位84 空)}" { check_slot 83; }
@test "shellcheck ${SCRIPTS[84]:-(槽位85 空)}" { check_slot 84; }
@test "shellcheck ${SCRIPTS[85]:-(槽位86 空)}" { check_slot 85; }
@test "shellcheck ${SCRIPTS[86]:-(槽位87 空)}" { check_slot 86; }
@test "shellcheck ${SCRIPTS[87]:-(槽位88 空)}" { check_slot 87; }
@test "shellcheck ${SCRIPTS[88]:-(槽位89 空)}" { check_slot 88; }
@test "shellcheck ${SCRIPTS[89]:-(槽位90 空)}" { check_slot 89; }
@test "shellcheck ${SCRIPTS[90]:-(槽位91 空)}" { check_slot 90; }
@test "shellcheck ${SCRIPTS[91]:-(槽位92 空)}" { check_slot 91; }
@test "shellcheck ${SCRIPTS[92]:-(槽位93 空)}" { check_slot 92; }
@test "shellcheck ${SCRIPTS[93]:-(槽位94 空)}" { check_slot 93; }
@test "shellcheck ${SCRIPTS[94]:-(槽位95 空)}" { check_slot 94; }
@test "shellcheck ${SCRIPTS[95]:-(槽位96 空)}" { check_slot 95; }
@test "shellcheck ${SCRIPTS[96]:-(槽位97 空)}" { check_slot 96; }
@test "shellcheck ${SCRIPTS[97]:-(槽位98 空)}" { check_slot 97; }
@test "shellcheck ${SCRIPTS[98]:-(槽位99 空)}" { check_slot 98; }
@test "shellcheck ${SCRIPTS[99]:-(槽位100 空)}" { check_slot 99; }
@test "shellcheck ${SCRIPTS[100]:-(槽位101 空)}" { check_slot 100; }
@test "shellcheck ${SCRIPTS[101]:-(槽位102 空)}" { check_slot 101; }
@test "shellcheck ${SCRIPTS[102]:-(槽位103 空)}" { check_slot 102; }
@test "shellcheck ${SCRIPTS[103]:-(槽位104 空)}" { check_slot 103; }
@test "shellcheck ${SCRIPTS[104]:-(槽位105 空)}" { check_slot 104; }
@test "shellcheck ${SCRIPTS[105]:-(槽位106 空)}" { check_slot 105; }
@test "shellcheck ${SCRIPTS[106]:-(槽位107 空)}" { check_slot 106; }
@test "shellcheck ${SCRIPTS[107]:-(槽位108 空)}" { check_slot 107; }
@test "shellcheck ${SCRIPTS[108]:-(槽位109 空)}" { check_slot 108; }
@test "shellcheck ${SCRIPTS[109]:-(槽位110 空)}" { check_slot 109; }
@test "shellcheck ${SCRIPTS[110]:-(槽位111 空)}" { check_slot 110; }
@test "shellcheck ${SCRIPTS[111]:-(槽位112 空)}" { check_slot 111; }
@test "shellcheck ${SCRIPTS[112]:-(槽位113 空)}" { check_slot 112; }
@test "shellcheck ${SCRIPTS[113]:-(槽位114 空)}" { check_slot 113; }
@test "shellcheck ${SCRIPTS[114]:-(槽位115 空)}" { check_slot 114; }
@test "shellcheck ${SCRIPTS[115]:-(槽位116 空)}" { check_slot 115; }
@test "shellcheck ${SCRIPTS[116]:-(槽位117 空)}" { check_slot 116; }
@test "shellcheck ${SCRIPTS[117]:-(槽位118 空)}" { check_slot 117; }
@test "shellcheck ${SCRIPTS[118]:-(槽位119 空)}" { check_slot 118; }
@test "shellcheck ${SCRIPTS[119]:-(槽位120 空)}" { check_slot 119; }

@test "shellcheck: 找到的脚本数 (${#SCRIPTS[@]}) 不超过槽位数 ($MAX_SLOTS)，且包含 show_gids.sh / diagnose.sh / scripts/gid_rule.sh" {
    echo "找到: ${SCRIPTS[*]}"
    ((${#SCRIPTS[@]} <= MAX_SLOTS))
    [[ " ${SCRIPTS[*]} " == *" show_gids.sh "* ]]
    [[ " ${SCRIPTS[*]} " == *" diagnose.sh "* ]]
    [[ " ${SCRIPTS[*]} " == *" scripts/gid_rule.sh "* ]]
}
