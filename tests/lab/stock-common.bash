# tests/lab/stock-common.bash - 原版 Debian 一对虚拟机里（lab/stock-run，root）的场景脚本共用的部分：
# 结果行、替身（网络地址、NOPASSWD、代码树）、以 learner 在登录 shell 里运行（被 tests/lab/stock-readme.sh、stock-drills.sh source）
# source 之前要有：P（只读的项目目录）、VM（0|1）、OUT（本机的输出目录）

HOMEDIR=/home/learner
TREE=$HOMEDIR/rocev2-learn
MYIP=10.11.0.$((VM + 1))
# shellcheck disable=SC2034  # 给 source 它的脚本用
PEERIP=10.11.0.$((2 - VM))
NIC=""

result() {  # result 名字 0|非0 说明 [日志]
    if [[ $2 == 0 ]]; then echo "RESULT $1 ok $3"; else
        echo "RESULT $1 fail $3"
        [[ -n ${4:-} && -f $4 ]] && sed 's/^/    | /' "$4"
    fi
}
stand() { echo "STAND-IN vm$VM: $*"; }

# stock_setup 步骤名：找到本机网卡（NIC）、配地址、给 learner NOPASSWD、把代码树复制到 ~learner/rocev2-learn；
# 失败时打印 RESULT 步骤名 fail、告诉对端放弃，返回 1
# stock_find_nic：NIC = MAC 是 LAB_MAC 的那块网卡（找不到时为空）
stock_find_nic() {
    local d mac
    NIC=""
    for d in /sys/class/net/*; do
        read -r mac <"$d/address" || continue
        [[ $mac == "$LAB_MAC" ]] && NIC=${d##*/}
    done
    return 0
}

stock_setup() {
    stock_find_nic
    [[ -n $NIC ]] || { result "$1" 1 "找不到 MAC $LAB_MAC 的网卡"; peer_abort "网卡"; return 1; }
    if [[ ${STOCK_FLAVOUR:-plain} == ufw ]]; then
        # Ubuntu 的样子：没有 ifupdown，用 README 的 netplan 块（“静态地址”那一节）原样配地址，只换它点名的网卡名和另一台的地址
        local cmd
        : >"$OUT/ifup.log"
        while IFS= read -r cmd; do
            cmd=${cmd//enp0s8/$NIC}
            cmd=${cmd//10.11.0.1\/24/$MYIP\/24}
            echo "+ $cmd" >>"$OUT/ifup.log"
            bash -c "$cmd" >>"$OUT/ifup.log" 2>&1 </dev/null || { result "$1" 1 "README 的 netplan 块失败" "$OUT/ifup.log"; peer_abort "netplan"; return 1; }
        done < <(bash "$P/tests/docs/readme-steps.sh" raw static-netplan)
        stand "网络: 网卡 $NIC（MAC $LAB_MAC）用 README 的 static-netplan 块配成 $MYIP/24（root 运行；enp0s8 → $NIC，VM1 上 10.11.0.1 → 10.11.0.2，README 说「另一台用 10.11.0.2」），代替虚拟化软件的 DHCP"
        # netplan apply 之后 networkd 配地址是异步的：等地址出现（上限 30 秒）
        local i
        for ((i = 0; i < 150; i++)); do
            [[ $(ip -4 -o addr show dev "$NIC" 2>/dev/null) == *"$MYIP/24"* ]] && break
            peer_nap 0.2
        done
        ip -4 -o addr show dev "$NIC" >>"$OUT/ifup.log" 2>&1
        [[ $(ip -4 -o addr show dev "$NIC" 2>/dev/null) == *"$MYIP/24"* ]] ||
            { result "$1" 1 "netplan apply 之后 30 秒 $NIC 上还没有 $MYIP/24" "$OUT/ifup.log"; peer_abort "netplan"; return 1; }
    else
        printf 'auto %s\niface %s inet static\n    address %s/24\n' "$NIC" "$NIC" "$MYIP" >/etc/network/interfaces.d/rocev2-lab
        stand "网络: 网卡 $NIC（MAC $LAB_MAC）由 harness 配成 $MYIP/24：/etc/network/interfaces.d/rocev2-lab + ifup $NIC（代替虚拟化软件的 DHCP）"
        ifup "$NIC" >"$OUT/ifup.log" 2>&1 || { result "$1" 1 "ifup $NIC 失败" "$OUT/ifup.log"; peer_abort "ifup"; return 1; }
    fi
    printf 'learner ALL=(ALL:ALL) NOPASSWD: ALL\n' >/etc/sudoers.d/rocev2-lab
    chmod 440 /etc/sudoers.d/rocev2-lab
    stand "sudo: /etc/sudoers.d/rocev2-lab = 'learner ALL=(ALL:ALL) NOPASSWD: ALL'（learner 本来要输密码）"
    runuser -u learner -- mkdir -p "$TREE"
    tar -C "$P" --exclude=./.git --exclude=./logs --exclude=./build/asan --exclude=./build/fuzz \
        --exclude=./build/cov -cf - . | runuser -u learner -- tar -C "$TREE" -xf -
    stand "代码: README 的 clone + make 由宿主机上编译好的树代替（只读 9p 上的项目目录连同 build/obj 复制到 $TREE，learner 所有；快速开始的 make 于是什么也不用重编）；每块命令在 learner 的登录 shell 里 cd ~/rocev2-learn 之后运行"
}

# learner 的登录 shell 里运行一段脚本（runuser -l：argv0 是 -bash，读 /etc/profile 和 ~/.profile；PATH 是普通用户的）
as_learner() {  # as_learner 脚本文件
    timeout "$((PEER_BOUND + 60))" runuser -l learner -c "cd ~/rocev2-learn && . $1" </dev/null
}

# learner_serve 文本 脚本 日志 名字：VM0 上 learner 在后台运行服务端（文本写进脚本，就是文档里那一行，不能加 --ready-file；SERVE_PID
# 是它的 pid，输出进日志），等它在 18515 上进入 LISTEN。没有监听时告诉对端“名字（没有在 18515 上监听）”并返回 1：
# 调用的人自己 wait "$SERVE_PID"、记下结果（各场景的结果行不同）
learner_serve() {
    printf '%s\n' "$1" >"$2"
    chmod 644 "$2"
    as_learner "$2" >"$3" 2>&1 &
    SERVE_PID=$!
    listen_wait 18515 "$SERVE_PID" && return 0
    peer_abort "$4（没有在 18515 上监听）"
    return 1
}

# stock_mirror：软件源的替身。虚拟机没有连到 Debian 镜像站的网络；lab/stock-run 挂上一块只读磁盘（卷标 rocev2-mirror，lab/stock-repo 用
# Debian 的 .deb 和 apt-ftparchive 做的，目录结构和镜像站一样），这里把它挂在 /srv/debian-mirror，sources.list 只留它（原来的存成 .orig）。
# apt 的索引照旧是空的（mmdebstrap 清掉了，和刚装好的云镜像一样），要 apt-get update 才找得到包
stock_mirror() {
    local suite
    suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
    mkdir -p /srv/debian-mirror
    mountpoint -q /srv/debian-mirror || mount -o ro LABEL=rocev2-mirror /srv/debian-mirror || return 1
    [[ -e /etc/apt/sources.list.orig ]] || mv /etc/apt/sources.list /etc/apt/sources.list.orig 2>/dev/null || true
    rm -f /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources
    echo "deb [trusted=yes] file:/srv/debian-mirror $suite main" >/etc/apt/sources.list
    stand "软件源: 没有连到 Debian 镜像站的网络；一块只读磁盘（lab/stock-repo：Debian 的 $(wc -l </srv/debian-mirror/NAMED) 个点名的包连同依赖，apt-ftparchive 生成索引）挂在 /srv/debian-mirror，/etc/apt/sources.list = 'deb [trusted=yes] file:/srv/debian-mirror $suite main'（代替 deb.debian.org；apt 的索引是空的）"
}
