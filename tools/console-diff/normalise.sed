# tools/console-diff/normalise.sed - console-diff 的规整（sed -E，run.sh 逐个日志调用）：
# 每次运行都不同的值换成 …，文字（步骤号、标题、verbs 调用名、说明、提示、行序）不动。
# 改了规则之后，同一个版本跑两遍（run.sh main main）必须 0 个不同，不同版本之间真的变化也不能被吃掉：只换数值，不删整行
# （例外：计数表里随时机出现的重发类计数行，见下）。

# ---- 地址和编号 ----
# fe80 链路本地 GID（veth 的 MAC 每次开机都不同）
s/fe80:[0-9a-f:]+/fe80:…/g
# QP号、PSN、rkey/lkey、MR 地址、CM 的会话号、flow_label：6 位以上的十六进制都是运行时的值
s/0x[0-9a-f]{6,}/0x…/g
s/flow_label=0x[0-9a-f]+/flow_label=0x…/g
# 客户端那端的 TCP/CM 端口是临时端口
s/(10\.11\.0\.2|0\.0\.0\.0):[0-9]{4,5}/\1:…/g
s/(到达本端 10\.11\.0\.1):[0-9]+/\1:…/g

# ---- 时间、速率、延迟 ----
s/[0-9]+\.[0-9]+ 秒/… 秒/g
s/[0-9]+\.[0-9]+ s\b/… s/g
s/等了 [0-9]+ ms/等了 … ms/g
s/waited [0-9]+ ms/waited … ms/g
s/平均 [0-9.]+ MB\/s/平均 … MB\/s/g
# 完成通道收到几个事件（完成事件会合并）
s/[0-9]+ 个完成事件/… 个完成事件/g
s/[0-9]+ completion events/… completion events/g

# ---- --bench 的表和机读行 ----
# 表的数据行（" 64   200   20.20 ..."）：数值和列宽每次都不同
/^ [0-9]+ +[0-9]+ +[0-9]/ { s/[0-9]+\.[0-9]+/…/g; s/ +/ /g; }
# BENCH_RESULT/BENCH_CPU：小数都是量出来的；随时机出现的重发类计数（ctr_*_retry_err、ctr_*rnr*、ctr_*seq*、ctr_duplicate*…）去掉，其余计数换成 …
/^BENCH_(RESULT|CPU) / {
    s/=[0-9]+\.[0-9]+/=…/g
    s/ ctr_[a-z_]*(retry|rnr|seq|duplicate|ack_deferred|out_of)[a-z_]*=[0-9]+//g
    s/ (ctr_[a-z_]+)=[0-9]+/ \1=…/g
}

# ---- --counters 的计数表 ----
# 重发类的计数是否动了取决于时机：整行去掉；其余的值换成 …（名字和含义照比）
/^  [a-z_]*(retry|rnr|seq_err|duplicate|ack_deferred|out_of_seq)[a-z_]* +\+[0-9]+  /d
s/^  ([a-z_]+) +\+[0-9]+  /  \1 +…  /
s/其余 [0-9]+ 个没动/其余 … 个没动/
s/[0-9]+ others unchanged/… others unchanged/

# ---- 其它 ----
# flow_label 由两端的 QP号算出（--cm 的 rdma_init_qp_attr 打印十进制）
s/flow_label=[0-9]+/flow_label=…/g
# UD 的 GRH 里 IPv4 头的标识和校验和
s/^( *45 00 [0-9a-f]{2} [0-9a-f]{2}) [0-9a-f]{2} [0-9a-f]{2} (40 00 40 11) [0-9a-f]{2} [0-9a-f]{2}/\1 … … \2 … …/
# SRQ 收尾：等 LAST_WQE_REACHED 的毫秒数
s/[0-9]+ ms 内/… ms 内/g
s/within [0-9]+ ms/within … ms/g
# --cm 的服务端：数据QP的连接请求到达顺序不定（程序自己也这么说）
s/^(    ↑ QP)\[[0-9]+\]$/\1[…]/
# 行末的空白（表的数据行每次宽度不同）
s/ +$//
