#!/usr/bin/env bash
# lab/demo.sh - 在实验室虚拟机里演示一次完整的服务端/客户端通信（由 make demo 调用）
#   单机拓扑：服务端在 rxe0 (10.11.0.1)，客户端在 rxe1，两份带注释的输出依次显示
#   two-vms：VM0 跑服务端，VM1 跑客户端（lab/run 在结束后分别显示两台的输出）；每台都只有 eth0 + rxe0
# 额外参数（DEMO_ARGS，例如 "--op write --size 4K"）会同时传给两端。
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p logs
read -r -a extra <<<"${DEMO_ARGS:-}"

if [[ -n ${LAB_VM:-} ]]; then
    if [[ $LAB_VM == 0 ]]; then
        # 开始监听后在两台共享的目录里写就绪文件（lab/run 的 LAB_SYNC），VM1 等它
        exec build/rdma_server -d "$LAB_DEV0" "${extra[@]}" ${LAB_SYNC:+--ready-file "$LAB_SYNC/vm0.demo-ready"}
    fi
    # 等 VM0 的服务端开始监听（就绪文件，上限 180 秒），不估它要多久；客户端在 -t 秒内重试被拒绝的连接只是兜底。
    # 和真实的两台虚拟机一样不给 -d：客户端按到服务端的路由自己选设备和GID
    if [[ -n ${LAB_SYNC:-} ]]; then
        for ((i = 0; i < 900; i++)); do [[ -e $LAB_SYNC/vm0.demo-ready ]] && break; sleep 0.2; done
    fi
    exec build/rdma_client "$LAB_IP0" -t 60 "${extra[@]}"
fi

# 横幅的语言跟着程序：DEMO_ARGS 里的 --lang，否则环境变量（scripts/ui_lang.sh，规则同 src/console/i18n.h）
# shellcheck source=scripts/ui_lang.sh
source scripts/ui_lang.sh
ui_lang_pick "${extra[@]}"
if [[ $UI_LANG == en ]]; then
    banner_s='\n################ server rdma_server -d %s (%s) ################\n'
    banner_c='\n################ client rdma_client %s -d %s (%s) ################\n'
    done_msg='\nDemo finished: server exit code %d, client exit code %d (both outputs are also saved under logs/)\n'
else
    banner_s='\n################ 服务端 rdma_server -d %s（%s）################\n'
    banner_c='\n################ 客户端 rdma_client %s -d %s（%s）################\n'
    done_msg='\n演示结束：服务端退出码 %d，客户端退出码 %d（两份输出也保存在 logs/ 下）\n'
fi

slog=logs/demo-server.log
clog=logs/demo-client.log
build/rdma_server -d "$LAB_DEV0" "${extra[@]}" >"$slog" 2>&1 &
spid=$!
src=0 crc=0
build/rdma_client "$LAB_IP0" -d "$LAB_DEV1" -t 30 "${extra[@]}" >"$clog" 2>&1 || crc=$?
wait "$spid" || src=$?

# shellcheck disable=SC2059  # 格式是上面按语言选的两种之一
printf "$banner_s" "$LAB_DEV0" "$slog"
cat "$slog"
# shellcheck disable=SC2059
printf "$banner_c" "$LAB_IP0" "$LAB_DEV1" "$clog"
cat "$clog"
# shellcheck disable=SC2059
printf "$done_msg" "$src" "$crc"
[[ $src == 0 && $crc == 0 ]]
