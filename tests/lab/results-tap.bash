# tests/lab/results-tap.bash - 把虚拟机里打印的 “RESULT 名字 ok|fail 说明” 行变成 TAP（被 tests/*.t source）
# results_to_tap 输出文件 起始编号 名字...：每个名字一行 TAP（编号从 起始编号+1 开始）；
# 没有结果或 fail 时打印 not ok，并把整份输出作为诊断附上（只附第一次：RESULTS_DUMPED 记着，调用方自己的检查也可以用它）
RESULTS_DUMPED=0
results_to_tap() {
    local out=$1 n=$2 name line
    shift 2
    for name in "$@"; do
        n=$((n + 1))
        line=$(grep -m1 "^RESULT $name " "$out")
        if [[ $line == "RESULT $name ok "* ]]; then
            echo "ok $n - $name: ${line#RESULT "$name" ok }"
        else
            echo "not ok $n - $name: ${line:-没有结果}"
            ((RESULTS_DUMPED++)) || sed 's/^/# /' "$out"
        fi
    done
}
