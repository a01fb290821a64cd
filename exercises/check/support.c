/*
 * support.c - 练习版程序里的 exercise_todo()：学习者的函数还是 TODO 时被调用（宿主机一层先发现，正常走不到这里）
 */
#include <stdio.h>

void exercise_todo(void);
void exercise_todo(void)
{
	fprintf(stderr, "exercise: the function is still the TODO\n");
}
