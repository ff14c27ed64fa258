/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: kernel integer types (LP64 userspace == x86_64 kernel). */
#ifndef _SHIM_LINUX_TYPES_H
#define _SHIM_LINUX_TYPES_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef uint8_t  u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;	/* as in the kernel: not unsigned long */
typedef int8_t   s8;
typedef int16_t  s16;
typedef int32_t  s32;
typedef long long s64;

#ifndef __SHIM_HAVE_UAPI_INTS
#define __SHIM_HAVE_UAPI_INTS
typedef uint8_t  __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef unsigned long long __u64;
typedef int8_t   __s8;
typedef int16_t  __s16;
typedef int32_t  __s32;
typedef long long __s64;
typedef uint16_t __be16;
typedef uint32_t __be32;
typedef uint64_t __be64;
typedef uint16_t __le16;
typedef uint32_t __le32;
typedef uint64_t __le64;
typedef uint16_t __sum16;
typedef uint32_t __wsum;
#endif

typedef unsigned int gfp_t;

struct list_head {
	struct list_head *next, *prev;
};

#endif
