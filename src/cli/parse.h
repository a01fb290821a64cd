/*
 * parse.h - 解析命令行（parse.c）和 -h 的用法（usage.c）
 */
#ifndef ROCE_PARSE_H
#define ROCE_PARSE_H

#include <stddef.h>

#include "cli/options.h"

enum parse_result { PARSE_OK = 0, PARSE_HELP = 1, PARSE_ERROR = 2 };

/* 解析参数；出错时把中文说明写入 err（调用者打印）。不打印、不退出。 */
enum parse_result parse_options(int argc, char **argv, enum role role,
				struct options *o, char *err, size_t errlen);
void print_usage(const char *prog, enum role role);
/* 解析出错时的说明写进 err */
void set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
