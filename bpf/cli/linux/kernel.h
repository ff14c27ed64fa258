/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bbr2-bpf (userspace): what src/bbr2_params.c uses from <linux/kernel.h>,
 * with the kernel's semantics: kstrtouint() takes base 0 (0x.., 0..), an
 * optional '+', one trailing newline, and nothing else.
 */
#ifndef _BBR2_CLI_LINUX_KERNEL_H
#define _BBR2_CLI_LINUX_KERNEL_H

#include <linux/types.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)	do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)

static inline int kstrtouint(const char *s, unsigned int base,
			     unsigned int *res)
{
	unsigned long long val = 0;
	unsigned int digits = 0;

	if (*s == '+')
		s++;
	if (base == 0) {
		base = 10;
		if (s[0] == '0') {
			base = 8;
			if ((s[1] | 0x20) == 'x') {
				base = 16;
				s += 2;
			}
		}
	}
	for (; *s && *s != '\n'; s++, digits++) {
		unsigned int d;
		char c = *s;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			return -EINVAL;
		if (d >= base)
			return -EINVAL;
		val = val * base + d;
		if (val > 0xffffffffULL)
			return -ERANGE;
	}
	if (!digits || (*s == '\n' && s[1]))
		return -EINVAL;
	*res = (unsigned int)val;
	return 0;
}

/* snprintf() that returns what it wrote, as the kernel's. */
static inline int __attribute__((format(printf, 3, 4)))
scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return (size_t)n >= size ? (int)size - 1 : n;
}

#endif
