/*
 * inject_kinds.h - --inject 的种类表（inject_kinds.c）：名字、哪一端、配什么操作（只管命令行这一侧）
 */
#ifndef ROCE_INJECT_KINDS_H
#define ROCE_INJECT_KINDS_H

#include <stddef.h>

#include "cli/options.h"

/* NAME → o->inject（不认识的名字：说明写进 err，返回 -1） */
int inject_parse(const char *arg, struct options *o, char *err, size_t errlen);
/* 这一种注入和本端的角色、操作、模式合不合 */
int inject_check(const struct options *o, char *err, size_t errlen);
/* -h 里本角色能用的每一种 */
void inject_print_usage(enum role role);

#endif
