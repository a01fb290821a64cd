/* unit.h - 各单元测试文件导出的测试表，由 unit_main.c 合并成一组运行 */
#ifndef ROCE_UNIT_H
#define ROCE_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

extern const struct CMUnitTest options_tests[];
extern const size_t options_tests_count;
extern const struct CMUnitTest gid_tests[];
extern const size_t gid_tests_count;
extern const struct CMUnitTest wire_tests[];
extern const size_t wire_tests_count;
extern const struct CMUnitTest payload_tests[];
extern const size_t payload_tests_count;
extern const struct CMUnitTest wc_check_tests[];
extern const size_t wc_check_tests_count;
extern const struct CMUnitTest conout_tests[];
extern const size_t conout_tests_count;
extern const struct CMUnitTest adopt_tests[];
extern const size_t adopt_tests_count;
extern const struct CMUnitTest trace_tests[];
extern const size_t trace_tests_count;
extern const struct CMUnitTest optable_tests[];
extern const size_t optable_tests_count;
extern const struct CMUnitTest stats_tests[];
extern const size_t stats_tests_count;
extern const struct CMUnitTest limits_tests[];
extern const size_t limits_tests_count;
extern const struct CMUnitTest sq_account_tests[];
extern const size_t sq_account_tests_count;
extern const struct CMUnitTest kernel_note_tests[];
extern const size_t kernel_note_tests_count;
extern const struct CMUnitTest grh_tests[];
extern const size_t grh_tests_count;
extern const struct CMUnitTest ctrl_tests[];
extern const size_t ctrl_tests_count;
extern const struct CMUnitTest i18n_tests[];
extern const size_t i18n_tests_count;
extern const struct CMUnitTest cm_request_tests[];
extern const size_t cm_request_tests_count;
extern const struct CMUnitTest counters_tests[];
extern const size_t counters_tests_count;

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#endif
