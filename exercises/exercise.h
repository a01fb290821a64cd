/*
 * exercise.h - 练习文件开头 include 的唯一头文件：程序的结构体和十二个课的声明（都在 rdma_common.h，只写一次）
 * The one header an exercise file includes: the program's structs and the twelve lesson declarations (all in rdma_common.h, written once)
 */
#ifndef ROCE_EXERCISE_H
#define ROCE_EXERCISE_H

#include <arpa/inet.h>
#include <string.h>
#include "rdma_common.h"

/* 还没写：检查会说“还没写” / not written yet: the check says so */
void exercise_todo(void);

#endif
