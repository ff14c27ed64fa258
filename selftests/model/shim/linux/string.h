/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_STRING_H
#define _SHIM_LINUX_STRING_H
#include <string.h>
#include <linux/types.h>
static inline size_t strscpy(char *dst, const char *src, size_t n)
{
	size_t l = strlen(src);

	if (!n)
		return (size_t)-7; /* -E2BIG */
	if (l >= n) {
		memcpy(dst, src, n - 1);
		dst[n - 1] = 0;
		return (size_t)-7;
	}
	memcpy(dst, src, l + 1);
	return l;
}
#endif
