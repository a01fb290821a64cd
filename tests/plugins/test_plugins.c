/*
 * test_plugins.c - 测试版的程序装哪些测试插件（见 test_plugins.h）
 */
#include "test_plugins.h"

#include <stdlib.h>

int test_env_int(const char *name, int max)
{
	const char *e = getenv(name);
	long v = e != NULL ? strtol(e, NULL, 10) : 0;

	return v > 0 && v <= max ? (int)v : 0;
}

/* program_start 装好插桩和控制平面之后调用（program/program.h） */
void program_test_plugins(struct program *p)
{
	sync_delay_install(p);
	read_delay_install(p);
	cm_rd_atom_install(p);
	cm_connect_gap_install(p);
}
