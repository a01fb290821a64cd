#!/usr/bin/env bats
# tests/verbs-check/verbs-check.bats - verbs-check（issue 57）在宿主机上：规则在最小的日志上、实验室里记下的真实日志、
# 和练习同一个错误同一个说法、程序的输出和退出码原样传过来。tests/20-host-scripts.t 运行它（不要设备、不要虚拟机）。
VC=tools/verbs-check/verbs-check

setup() {
    cd "$BATS_TEST_DIRNAME/../.." || return 1
}

@test "verbs-check rules: each finding from a minimal log, exactly the expected ids; clean logs stay clean (tests/verbs-check/cases.py)" {
    run python3 tests/verbs-check/cases.py
    echo "$output"
    [[ $status == 0 ]]
    [[ $output == *"cases, 0 failed"* ]]
}

@test "verbs-check --pair on logs recorded in the lab: ibv_rc/ud/srq_pingpong -g 1 and our default pair have no finding" {
    local c
    for c in rc ud srq ours; do
        run "$VC" --lang en --pair "tests/verbs-check/logs/$c"
        echo "== $c"
        echo "$output"
        [[ $status == 0 ]]
        [[ $output == *"pair: "* ]]
        [[ $output == *"no findings"* || $output == *"no errors or warnings"* ]]
    done
}

@test "verbs-check on ibv_rc_pingpong without -g (recorded in the lab): the missing GRH is named, at RTR, by field" {
    run "$VC" --lang en --judge tests/verbs-check/logs/rc-nogrh/*.log
    echo "$output"
    [[ $status == 1 ]]
    [[ $output == *"error rtr.grh ah_attr.is_global ["*"INIT->RTR)]"* ]]
    [[ $output == *"cannot see: statically linked"* ]]
}

@test "one rule source: RTR mask with RTS bits gets the same id, field, message and reason from make exercise and from verbs-check" {
    export EXERCISE_STATE=$BATS_TEST_TMPDIR/state.json
    make -s exercise-objs >/dev/null 2>&1 || skip "exercise objects do not build here"
    # 第二次失败时练习给出完整的解释（why:）
    python3 exercises/check/exercise.py run 3 --file tests/exercises/fixtures/3-rtr-mask-forbidden.c --no-lab --lang en >/dev/null 2>&1 || true
    run python3 exercises/check/exercise.py run 3 --file tests/exercises/fixtures/3-rtr-mask-forbidden.c --no-lab --lang en
    local ex=$output
    echo "$ex"
    # 同一个掩码（样例里的 IBV_QP_STATE | AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER | SQ_PSN | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC）在 verbs-check 的日志里
    run python3 tests/verbs-check/same-mistake.py "$ex"
    echo "$output"
    [[ $status == 0 ]]
}

@test "output and exit code pass through unchanged; no log, no finding for a program without verbs; --lang en has no Chinese" {
    make -s verbs-check >/dev/null
    run build/verbs-check --lang en -- sh -c 'echo to-stdout; echo to-stderr >&2; exit 7'
    [[ $status == 7 ]]
    [[ ${lines[0]} == to-stdout && ${lines[1]} == to-stderr ]]
    [[ $output == *"no verbs call was recorded"* ]]
    run grep -cP '[\x{4e00}-\x{9fff}]' <<<"$output"
    [[ $output == 0 ]]
    # 子进程继承预载库，输出和退出码照样
    run build/verbs-check -- sh -c 'sh -c "exit 3"; echo $?'
    [[ $status == 0 && ${lines[0]} == 3 ]]
    # ibv_devinfo（用 libibverbs，宿主机没有设备）：有没有 verbs-check 一样
    if command -v ibv_devinfo >/dev/null; then
        local plain rc1 rc2
        plain=$(ibv_devinfo 2>&1) && rc1=0 || rc1=$?
        run build/verbs-check -- ibv_devinfo
        rc2=$status
        [[ $rc1 == "$rc2" ]]
        [[ $output == "$plain"* ]]
    fi
}
