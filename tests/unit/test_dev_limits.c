/* test_limits.c - 选项对设备上限：假的设备属性（硬件网卡那样紧的上限），每一项超了都说出上限和该改的选项 */
#include <string.h>

#include "verbs/dev_limits.h"
#include "cli/parse.h"
#include "unit.h"

static struct options parse(int argc, char **argv)
{
	struct options o;
	char err[256];

	assert_int_equal(parse_options(argc, argv, ROLE_CLIENT, &o, err, sizeof(err)), PARSE_OK);
	return o;
}

/* 一块上限不大的“网卡”：max_qp_wr 512、max_cqe 4096、max_qp 64、max_msg_sz 1 GiB */
static void fake_device(struct ibv_device_attr *d, struct ibv_port_attr *p)
{
	memset(d, 0, sizeof(*d));
	memset(p, 0, sizeof(*p));
	d->max_qp = 64;
	d->max_qp_wr = 512;
	d->max_cqe = 4096;
	p->max_msg_sz = 1u << 30;
}

static void defaults_fit_a_small_device(void **state)
{
	char *argv[] = { "rdma_client", "10.0.0.1", NULL };
	char *bench[] = { "rdma_client", "10.0.0.1", "--bench", "bw", "-q", "16", NULL };
	struct options o = parse(2, argv), b = parse(6, bench);
	struct ibv_device_attr d;
	struct ibv_port_attr p;
	char err[256] = "";

	(void)state;
	fake_device(&d, &p);
	assert_int_equal(limits_check(&o, &d, &p, err, sizeof(err)), 0);
	/* 16 个QP × (128 + 128) = 4096 项：正好装得下 */
	assert_int_equal(limits_check(&b, &d, &p, err, sizeof(err)), 0);
}

static void tx_depth_above_max_qp_wr_names_the_limit_and_option(void **state)
{
	char *argv[] = { "rdma_client", "10.0.0.1", "--bench", "bw", "-q", "1", "--tx-depth", "1024", NULL };
	struct options o = parse(8, argv);
	struct ibv_device_attr d;
	struct ibv_port_attr p;
	char err[256] = "";

	(void)state;
	fake_device(&d, &p);
	assert_int_equal(limits_check(&o, &d, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "max_qp_wr=512"));
	assert_non_null(strstr(err, "--tx-depth"));
	d.max_qp_wr = 1024;   /* 等于上限：可以 */
	assert_int_equal(limits_check(&o, &d, &p, err, sizeof(err)), 0);
}

static void shared_cq_above_max_cqe_names_the_count(void **state)
{
	char *argv[] = { "rdma_client", "10.0.0.1", "--bench", "bw", "-q", "16", "--tx-depth", "256", NULL };
	struct options o = parse(8, argv);
	struct ibv_device_attr d;
	struct ibv_port_attr p;
	char err[256] = "";

	(void)state;
	fake_device(&d, &p);
	assert_int_equal(limits_check(&o, &d, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "8192"));            /* 16 × (256 + 256) */
	assert_non_null(strstr(err, "max_cqe=4096"));
	assert_non_null(strstr(err, "-q 或 --tx-depth"));
}

static void qps_and_message_size_against_device_and_port(void **state)
{
	char *many[] = { "rdma_client", "10.0.0.1", "-q", "16", NULL };
	char *big[] = { "rdma_client", "10.0.0.1", "--size", "2M", NULL };
	char *sweep[] = { "rdma_client", "10.0.0.1", "--bench", "bw", "--sweep", NULL };
	struct options m = parse(4, many), b = parse(4, big), s = parse(5, sweep);
	struct ibv_device_attr d;
	struct ibv_port_attr p;
	char err[256] = "";

	(void)state;
	fake_device(&d, &p);
	d.max_qp = 8;
	assert_int_equal(limits_check(&m, &d, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "max_qp=8"));
	fake_device(&d, &p);
	p.max_msg_sz = 1u << 20;
	assert_int_equal(limits_check(&b, &d, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "max_msg_sz=1048576"));
	assert_non_null(strstr(err, "--size"));
	assert_int_equal(limits_check(&s, &d, &p, err, sizeof(err)), -1);   /* --sweep 到 8 MiB */
	assert_non_null(strstr(err, "8388608"));
}

/* 一半物理内存是上限：刚好一半可以，多一个字节不行；读不到物理内存（0）时不拦 */
static void buffer_above_half_of_memory_is_refused(void **state)
{
	(void)state;
	assert_int_equal(limits_memory(512u << 20, 1024u << 20), 0);
	assert_int_equal(limits_memory((512u << 20) + 1, 1024u << 20), -1);
	assert_int_equal(limits_memory((size_t)16 * (256u << 20), 1024u << 20), -1);
	assert_int_equal(limits_memory(1u << 30, 0), 0);
}

/* --srq：SRQ 的三个上限，每一项超了都说出来（硬件网卡常见 max_srq_wr 几千到几万；0 = 不支持 SRQ） */
static void srq_limits_are_checked(void **state)
{
	char *argv[] = { "rdma_client", "10.0.0.1", "--srq", "-q", "16", NULL };
	char *bench[] = { "rdma_client", "10.0.0.1", "--srq", "--bench", "bw", "--tx-depth", "256", NULL };
	struct options o = parse(5, argv), b = parse(7, bench);
	struct ibv_device_attr d;
	struct ibv_port_attr p;
	struct queue_caps q;
	char err[256] = "";

	(void)state;
	fake_device(&d, &p);
	d.max_srq = 8;
	d.max_srq_wr = 32;
	d.max_srq_sge = 1;
	queue_caps(&o, &q);
	assert_int_equal(srq_depth_wanted(&o, &q), 32);          /* 普通模式：2 × 16 个QP */
	assert_int_equal(limits_check(&o, &d, &p, err, sizeof(err)), 0);
	queue_caps(&b, &q);
	assert_int_equal(srq_depth_wanted(&b, &q), q.recv_wr);   /* 基准测试：一个QP的接收深度 */
	d.max_qp_wr = 1024;
	assert_int_equal(limits_check(&b, &d, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "超过设备的 max_srq_wr=32；减小 -q 或 --tx-depth"));
	d.max_srq_wr = 31;
	assert_int_equal(limits_check(&o, &d, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "SRQ 要 32 个接收请求的深度，超过设备的 max_srq_wr=31；减小 -q"));
	d.max_srq_wr = 32;
	d.max_srq_sge = 0;
	assert_int_equal(limits_check(&o, &d, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "max_srq_sge=0"));
	d.max_srq = 0;
	assert_int_equal(limits_check(&o, &d, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "不支持共享接收队列"));
	/* 不用 --srq 时这三个上限不管 */
	o.srq = 0;
	assert_int_equal(limits_check(&o, &d, &p, err, sizeof(err)), 0);
}

const struct CMUnitTest limits_tests[] = {
	cmocka_unit_test(buffer_above_half_of_memory_is_refused),
	cmocka_unit_test(defaults_fit_a_small_device),
	cmocka_unit_test(tx_depth_above_max_qp_wr_names_the_limit_and_option),
	cmocka_unit_test(shared_cq_above_max_cqe_names_the_count),
	cmocka_unit_test(qps_and_message_size_against_device_and_port),
	cmocka_unit_test(srq_limits_are_checked),
};
const size_t limits_tests_count = COUNT_OF(limits_tests);
