/*
 * counters.h - --counters：端口的硬件计数（sysfs 的 hw_counters 目录）读进一张表、前后两张表求差、每个计数的含义
 *
 * 纯逻辑（不调用 libibverbs，可以用伪造的 sysfs 目录单元测试：tests/unit/fixtures/hw_counters/）。
 * 目录是 /sys/class/infiniband/<dev>/ports/<port>/hw_counters/：每个文件一个计数（十进制），
 * 另有一个 lifespan：内核把读到的值缓存多少毫秒（ib_core 的默认 10 ms）——它不是计数，读进 lifespan_ms。
 * 计数属于设备的端口，不属于某个 QP 或某个进程：同一个设备上的别的程序、别的会话的包也算在里面。
 * 打印和 trace 在 ctr_hook.c（要看连接：设备名、端口、会话）。
 */
#ifndef ROCE_COUNTERS_H
#define ROCE_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#define CTR_MAX 64              /* 一个目录里最多记这么多计数（rxe 15 个，mlx5 约 40 个） */
#define CTR_NAME_MAX 48
#define CTR_LIFESPAN_DEFAULT_MS 10  /* 读不出 lifespan 时按 ib_core 的默认值（RDMA_HW_STATS_DEFAULT_LIFESPAN） */

struct ctr_entry {
	char name[CTR_NAME_MAX];
	uint64_t value;
	int err;                /* 0 = 读到了；否则是读不出的原因（errno；内容不是数字时 EINVAL） */
};

struct ctr_table {
	int present;            /* 0 = 没有这个目录（设备不提供端口计数），dir_err 是 opendir 的 errno */
	int dir_err;
	long lifespan_ms;       /* 目录里的 lifespan；读不出时 -1 */
	size_t n;               /* 按名字排序 */
	struct ctr_entry e[CTR_MAX];
};

/* 一个动了的计数（after - before，after 比 before 小时是负数：计数被清零过） */
struct ctr_delta {
	const char *name;       /* 指向 after 表里的名字 */
	long long delta;
	uint64_t before, after;
};

/* 读目录 dir 到 t：成功返回 0；没有目录返回 -1（t->present = 0）。单个文件读不出不算失败，记在 err 里 */
int ctr_read_dir(const char *dir, struct ctr_table *t);
/* 两张表里都读到了、值不一样的计数，按名字排序写进 out（最多 max 个），返回个数 */
size_t ctr_diff(const struct ctr_table *before, const struct ctr_table *after, struct ctr_delta *out, size_t max);
/* 结束时的读要等多久（毫秒）：比 lifespan 多一点（jiffies 的取整），保证读到的是最后一个包之后的值 */
long ctr_settle_ms(const struct ctr_table *t);

/*
 * 计数的含义（一行：rxe 里什么让它加一、硬件网卡上有没有同样的计数）：认识的返回 N_() 文字（用的地方再 _()），
 * 不认识的返回 NULL（照样打印数值，不丢掉）
 */
const char *ctr_meaning(const char *name);

/* BENCH_RESULT 的后缀：" ctr_sent_pkts=16 ctr_rcvd_pkts=8"（名字里不是字母数字的字符换成 _）；返回写了多少字节 */
size_t ctr_result_suffix(const struct ctr_delta *d, size_t n, char *buf, size_t len);

#endif
