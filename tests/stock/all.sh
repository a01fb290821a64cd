#!/usr/bin/env bash
# tests/stock/all.sh - make test-stock / make test-cloud：先备齐要用的原版镜像和软件源磁盘（缺了就建，和 make demo 运行 lab/setup 一样；
# 建要 root，不是 root 时失败并说出命令），再一行一行地 prove，最后数出跑了几行、过了几行、各用了多少秒。
# 没有哪一行能以“跳过”算过：镜像缺了时测试说 not ok（STOCK_REQUIRE=1），prove 的输出里有 skipped 也算失败。
#   tests/stock/all.sh stock [STOCK=发行版...] [FLAVOUR=变体...]    README 的 6 行（debian12/13 × plain/nftdrop/ufw）+ 克隆 + 演练
#   tests/stock/all.sh cloud                                        云内核那一行（tests/stock/cloud.sh）
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
what=${1:-stock}
distros=${STOCK:-debian12 debian13}
flavours=${FLAVOUR:-plain nftdrop ufw}
export STOCK_REQUIRE=1

rows=() need=()
if [[ $what == cloud ]]; then
    rows+=("debian12 cloud|tests/stock/cloud.sh")
    need+=(debian12-cloud)
else
    for d in $distros; do
        for f in $flavours; do
            rows+=("$d $f|STOCK_DISTRO=$d STOCK_FLAVOUR=$f STOCK_REBOOT=1 tests/70-stock-readme.t")
            if [[ $f == ufw ]]; then need+=("$d-ufw"); else need+=("$d"); fi
        done
    done
    # 克隆和演练只在默认的一轮里（STOCK=、FLAVOUR= 缩小范围时不跑）
    if [[ -z ${STOCK:-} && -z ${FLAVOUR:-} ]]; then
        rows+=("debian12 ufw clones|tests/stock/clone.sh" "debian12 nftdrop drills|tests/stock/drills.sh")
        need+=(debian12-ufw debian12)
    fi
fi

# 备齐镜像（lab/stock-images 也备齐它的发行版的软件源磁盘）
mapfile -t need < <(printf '%s\n' "${need[@]}" | awk '!seen[$0]++')
for img in "${need[@]}"; do
    bash lab/stock-images --check "$img" && continue
    if [[ $EUID -ne 0 ]]; then
        echo "make $what: 没有原版镜像 $img（或它的软件源磁盘）；先运行 (run first): sudo make stock-images STOCK=$img" >&2
        exit 1
    fi
    echo "== 建原版镜像 (building) $img: bash lab/stock-images $img"
    bash lab/stock-images "$img" || { echo "make $what: bash lab/stock-images $img 失败" >&2; exit 1; }
done

ran=0 passed=0 summary=()
for row in "${rows[@]}"; do
    name=${row%%|*} cmd=${row#*|}
    echo "== $name"
    log=$(mktemp)
    t0=$SECONDS
    file=${cmd##* } vars=()
    [[ $cmd == *" "* ]] && read -r -a vars <<<"${cmd% *}"
    env "${vars[@]}" prove --exec bash "$file" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    took=$((SECONDS - t0))
    ran=$((ran + 1))
    tests=$(sed -nE 's/^Files=[0-9]+, Tests=([0-9]+),.*/\1/p' "$log")
    skipped=0
    grep -qE '\.\. skipped|# SKIP' "$log" && skipped=1
    if ((rc == 0 && skipped == 0)) && [[ ${tests:-0} -gt 0 ]]; then
        passed=$((passed + 1))
        summary+=("  ok      $name: ${tests} checks, ${took} s")
    else
        summary+=("  FAILED  $name: prove exit $rc$( ((skipped)) && echo ', skipped (counts as failure)'), ${took} s")
    fi
    rm -f "$log"
done
echo "== make $what: ${ran} rows ran, ${passed} passed"
printf '%s\n' "${summary[@]}"
((ran > 0 && passed == ran))
