#!/usr/bin/env bash
# tests/34-lab-shell.t - make shell 像人一样用：tmux 里启动 lab/run --shell，send-keys 打字，capture-pane 看屏幕（TAP）
#   1. 没有终端时立刻说明并退出 2（不会挂住）
#   2. 单虚拟机：ibv_devices；服务端放后台 + 客户端前台，两边都成功；jobs 看得到后台作业
#   3. 交互模式一行一行地打字，每行都从服务端内存里显示出来；q 结束
#   4. Ctrl-C 打断虚拟机里等待中的服务端，提示符回来（qemu 还在）
#   5. exit 之后虚拟机关机，没有 qemu 留下
#   6. LAB_RXE=none：开机时没有 rdma_rxe 模块和 rxe0；README 的 Soft-RoCE 配置命令逐行输入，得到能用的 rxe0；
#      内核自己要模块时自动加载（ip link add 一个 dummy）
#   7. 两台虚拟机（在 tmux 里运行时开新窗口，左 VM0 右 VM1）：左边打服务端，右边打客户端（不给 -d），两边都成功；
#      两个窗格都 exit 后窗口消失，没有 qemu 留下
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
SOCK=rocev2-shell-test-$$
T=$(mktemp -d)
tm() { tmux -L "$SOCK" "$@"; }
# shellcheck disable=SC2317  # 由 trap 调用
cleanup() { tm kill-server 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
echo "1..7"
. tests/lib/tap.bash
PANE=lab
HIST=-200   # capture-pane 从历史的哪一行起（"-" = 全部历史）
screen() { tm capture-pane -p -J -S "$HIST" -t "$PANE" >"$T/screen" 2>/dev/null; }
# 等屏幕（窗格 $PANE）上出现固定字符串，最多 $2 秒
wait_for() {
    local i
    for ((i = 0; i < $2 * 2; i++)); do
        screen
        grep -qF -- "$1" "$T/screen" && return 0
        # 客户机内核卡死，lab/run 已经结束了虚拟机（lab/README）：不再等
        grep -qE 'reported a soft lockup|Kernel panic' "$T/screen" && return 1
        sleep 0.5
    done
    return 1
}
type_line() { tm send-keys -t "$PANE" -l -- "$1"; tm send-keys -t "$PANE" Enter; }
# 打一行但先不按回车，等屏幕上看到它原样回显了再按；回显不对（机器忙时见过乱码）就 Ctrl-U 清掉这一行重打，最多 3 次。
# 只用于屏幕上还没有这行字的时候（否则看到的是旧的那一行）
type_seen() {
    local k
    for ((k = 0; k < 3; k++)); do
        tm send-keys -t "$PANE" -l -- "$1"
        if wait_for "$1" 30; then
            tm send-keys -t "$PANE" Enter
            return 0
        fi
        tm send-keys -t "$PANE" C-u
    done
    return 1
}
need_tmux() { command -v tmux >/dev/null || { echo "缺少 tmux（bash lab/setup 会安装）" >"$T/screen"; return 1; }; }

# 1. 没有终端
rc=0
SECONDS=0
lab/run --shell </dev/null >"$T/notty" 2>&1 || rc=$?
cp "$T/notty" "$T/screen"
[[ $rc == 2 ]] && grep -qF -- '--shell 需要一个终端' "$T/notty" && ((SECONDS < 10))
ok $? "no terminal: lab/run --shell exits 2 at once with a message (rc=$rc)" "$T/screen"

# 2-5. 单虚拟机。结果先记在 R[2..5]，跑完再报：客户机内核报了 soft lockup（lab/README：CI 里见过两次，
# 卡在内核里的总是第一个后台启动的 rdma_server）时，把内核的调用栈打到 stderr（prove 会显示），换一台新虚拟机
# 把 2-5 重跑一次。只认 lab/run 的那句话，其他任何失败都照常报出来；第二次再卡住就算失败
declare -a R
lockup_seen() { grep -qE 'reported a soft lockup|BUG: soft lockup|Kernel panic' "$T/screen" "$T"/screen[2-5] 2>/dev/null; }
single_vm_cases() {
    st=1
    if need_tmux; then
        tm new-session -d -s lab -x 160 -y 50 "lab/run --shell; echo LABRUN-EXIT=\$?; sleep 600"
        if wait_for '[lab ' 120; then
            type_line 'ibv_devices'
            type_line 'build/rdma_server -d rxe0 -q 2 > /tmp/s.log 2>&1 &'
            type_line 'jobs'
            type_line 'build/rdma_client 10.11.0.1 -d rxe1 -q 2 | tail -1; wait; tail -1 /tmp/s.log'
            wait_for '服务端正常结束' 90 && grep -qE '^ +rxe1 +[0-9a-f]{16}' "$T/screen" \
                && grep -qF '客户端正常结束' "$T/screen" && grep -qF 'Running                 build/rdma_server' "$T/screen"
            st=$?
        fi
    fi
    R[2]=$st; cp "$T/screen" "$T/screen2"
    if lockup_seen; then R[3]=1 R[4]=1 R[5]=1; tm kill-session -t lab 2>/dev/null; return; fi

    st=1
    if tm has-session -t lab 2>/dev/null; then
        type_line 'build/rdma_server -d rxe0 --interactive &'
        wait_for '等待客户端连接' 60
        type_line 'build/rdma_client 10.11.0.1 -d rxe1 --interactive'
        if wait_for '发送> ' 60; then
            type_line 'hello rdma'
            wait_for '[服务端内存] 消息#1: hello rdma' 30 && wait_for 'RDMA READ 读回: hello rdma' 30 \
                && type_line 'second line' && wait_for '[服务端内存] 消息#2: second line' 30 \
                && type_line 'q' && wait_for '收到 q，服务端结束' 30
            st=$?
        fi
    fi
    R[3]=$st; cp "$T/screen" "$T/screen3"

    st=1
    if tm has-session -t lab 2>/dev/null; then
        # 用一个独有的端口，等的就一定是这一个服务端（屏幕上还留着前面的“等待客户端连接”）
        type_line 'build/rdma_server -d rxe0 -p 18777 --accept-timeout 300'
        if wait_for '在TCP端口 18777 等待客户端连接' 60; then
            tm send-keys -t lab C-c
            type_line 'echo "after ctrl-c: $?"'
            wait_for 'after ctrl-c: 130' 30 && pgrep -f 'chardev stdio,id=con' >/dev/null
            st=$?
        fi
    fi
    R[4]=$st; cp "$T/screen" "$T/screen4"

    st=1
    if tm has-session -t lab 2>/dev/null; then
        type_line 'exit'
        if wait_for 'LABRUN-EXIT=0' 60; then
            for ((i = 0; i < 20; i++)); do pgrep -f 'chardev stdio,id=con' >/dev/null || break; sleep 0.5; done
            ! pgrep -f 'chardev stdio,id=con' >/dev/null && grep -qF 'shell ended, VM powered off' "$T/screen"
            st=$?
        fi
    fi
    R[5]=$st; cp "$T/screen" "$T/screen5"
    tm kill-session -t lab 2>/dev/null
}
: >"$T/screen"
rm -f "$T"/screen[2-5]
single_vm_cases
if lockup_seen; then
    echo "34-lab-shell: the guest kernel reported a soft lockup in the single-VM shell (lab problem, lab/README); its stacks:" >&2
    grep -hE -A60 'lab: *kernel:|BUG: soft lockup|Kernel panic' "$T"/screen* 2>/dev/null | head -n 120 >&2
    echo "34-lab-shell: cases 2-5 once more in a new VM" >&2
    : >"$T/screen"
    rm -f "$T"/screen[2-5]
    single_vm_cases
fi
show() { [[ -f $T/screen$1 ]] && cp "$T/screen$1" "$T/screen"; ok "${R[$1]}" "$2"; }
show 2 "shell: ibv_devices, server in the background (jobs), client in the foreground; both succeed"
show 3 "shell: --interactive typed line by line, each line shows up from the server's memory; q ends both"
show 4 "shell: Ctrl-C stops the waiting server inside the guest (status 130); the VM keeps running"
show 5 "shell: exit powers the VM off and lab/run returns 0; no qemu left"

# 6. LAB_RXE=none
st=1
if need_tmux; then
    tm new-session -d -s lab -x 160 -y 50 "LAB_RXE=none lab/run --shell; echo LABRUN-EXIT=\$?; sleep 600"
    if wait_for '[lab ' 120; then
        type_line 'ibv_devices | grep -c rxe'
        # 开机时模块没加载、也没有 rxe0（屏幕上的结果行是算出来的 42/0，和打进去的命令行不一样）
        type_line "echo rxe-loaded-\$(grep -c '^rdma_rxe ' /proc/modules); [[ -e /sys/class/infiniband/rxe0 ]] || echo no-rxe0-\$((6*7))"
        type_line 'modprobe rdma_rxe'
        type_line 'rdma link add rxe0 type rxe netdev veth0'
        type_line 'ibv_devices'
        type_line './show_gids.sh rxe0'
        # 内核自己要模块时（request_module）也能自动加载（以前是 30-lab-smoke.t 的第 7 项，单独开一次机）
        type_line "ip link add d0 type dummy && grep -q '^dummy ' /proc/modules && echo autoload-\$((6*7))"
        type_line 'exit'
        wait_for 'LABRUN-EXIT=0' 120 && grep -qE '^ +rxe0 +[0-9a-f]{16}' "$T/screen" \
            && grep -qF '10.11.0.1       v2      veth0   <== 自动选择' "$T/screen" && grep -qF '没有 RDMA 设备' "$T/screen" \
            && grep -q '^rxe-loaded-0 *$' "$T/screen" && grep -q '^no-rxe0-42 *$' "$T/screen" && grep -q '^autoload-42 *$' "$T/screen"
        st=$?
    fi
fi
ok "$st" "LAB_RXE=none shell: no rdma_rxe and no rxe0 at boot; the README's modprobe + rdma link add typed one by one give a working rxe0; kernel module autoload works" "$T/screen"
tm kill-session -t lab 2>/dev/null

# 7. 两台虚拟机。窗格只有半宽（约 100 列）：机器忙的时候，打进去的长命令行（带管道和中文、加上提示符超过一行，
# readline 在换行处重画）回显成了乱码（CI 里见过）。所以这里只打短的 ASCII 行（加上提示符也不到一行），看到回显再按回车；
# 程序的输出整个留在屏幕上（不经管道），按屏幕上出现的字判断：服务端打印了“等待客户端连接”才打客户端，不是睡两秒
st=1
HIST=-
if need_tmux; then
    tm new-session -d -s outer -x 200 -y 50 "LAB_TOPOLOGY=two-vms lab/run --shell; sleep 600"
    PANE=outer:rocev2-lab.0
    if wait_for '[lab-vm0 ' 120; then
        PANE=outer:rocev2-lab.1
        wait_for '[lab-vm1 ' 120
        PANE=outer:rocev2-lab.0
        type_seen 'build/rdma_server -q 2 --op write --size 4K' && wait_for '在TCP端口 18515 等待客户端连接' 60
        PANE=outer:rocev2-lab.1
        type_seen 'build/rdma_client 10.11.0.1 -q 2 --op write --size 4K'
        if wait_for '客户端正常结束' 90 && grep -qF '按路由自动选择: rxe0 —— 它的端口1 建在 eth0 上' "$T/screen"; then
            cp "$T/screen" "$T/vm1"
            PANE=outer:rocev2-lab.0
            if wait_for '服务端正常结束' 30; then
                cp "$T/screen" "$T/vm0"
                type_seen 'exit'
                PANE=outer:rocev2-lab.1
                type_seen 'exit'
                for ((i = 0; i < 60; i++)); do
                    tm list-windows -t outer 2>/dev/null | grep -q rocev2-lab || break
                    sleep 0.5
                done
                ! tm list-windows -t outer 2>/dev/null | grep -q rocev2-lab && ! pgrep -f 'chardev stdio,id=con' >/dev/null
                st=$?
                cat "$T/vm0" "$T/vm1" >"$T/screen"
            fi
        fi
    fi
fi
ok "$st" "two VMs side by side in tmux: server typed in the left pane, client (no -d) in the right; both succeed; both exits close the window, no qemu left" "$T/screen"
