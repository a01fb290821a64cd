/*
 * payload.c - 可校验的测试数据
 */
#include "runs/payload.h"

#include <stdio.h>
#include <string.h>

static uint8_t letter(size_t off, uint32_t qp, uint32_t round)
{
	return (uint8_t)('a' + (off * 7 + qp * 3 + round * 5) % 26);
}

/* len ≥ 32 时的可读前缀；返回前缀长度（一定小于 32），否则 0 */
static size_t head_text(char text[48], size_t len, const char *who, uint32_t qp, uint32_t round)
{
	int n;

	if (len < 32)
		return 0;
	n = snprintf(text, 48, "[%s QP%u round%u] ", who, qp, round);
	return (n > 0 && n < 32) ? (size_t)n : 0;
}

void payload_fill(uint8_t *buf, size_t len, const char *who, uint32_t qp, uint32_t round)
{
	char text[48];
	size_t head = head_text(text, len, who, qp, round);

	memcpy(buf, text, head);
	for (size_t off = head; off < len; off++)
		buf[off] = letter(off, qp, round);
}

long payload_check(const uint8_t *buf, size_t len, const char *who, uint32_t qp, uint32_t round)
{
	char text[48];
	size_t head = head_text(text, len, who, qp, round);

	for (size_t off = 0; off < len; off++) {
		uint8_t e = off < head ? (uint8_t)text[off] : letter(off, qp, round);

		if (buf[off] != e)
			return (long)off;
	}
	return -1;
}

size_t payload_diff_count(const uint8_t *buf, size_t len, const char *who, uint32_t qp, uint32_t round)
{
	char text[48];
	size_t head = head_text(text, len, who, qp, round), n = 0;

	for (size_t off = 0; off < len; off++)
		n += buf[off] != (off < head ? (uint8_t)text[off] : letter(off, qp, round));
	return n;
}

void payload_preview(const uint8_t *buf, size_t len, char *out, size_t max)
{
	size_t n = len < max - 1 ? len : max - 1;

	for (size_t i = 0; i < n; i++)
		out[i] = (buf[i] >= 0x20 && buf[i] < 0x7f) ? (char)buf[i] : '.';
	out[n] = '\0';
}

uint32_t payload_imm(uint32_t qp, uint32_t round)
{
	return ((round & 0xffff) << 16) | (qp & 0xffff);
}

uint64_t atomic_initial(uint32_t qp)
{
	return 1000000ull * (qp + 1);
}

uint64_t atomic_addend(uint32_t qp)
{
	return qp + 1;
}
