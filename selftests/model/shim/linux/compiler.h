/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: compiler attributes and annotations used by kernel code.
 * Part of the tcp_bbr2 model tests (selftests/model); not kernel code.
 */
#ifndef _SHIM_LINUX_COMPILER_H
#define _SHIM_LINUX_COMPILER_H

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

#define __read_mostly
#define __init
#define __exit
#define __initdata
#define __user
#define __rcu
#define __percpu
#define __iomem
#define __force
#define __bitwise
#define __must_check		__attribute__((warn_unused_result))
#undef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#define noinline		__attribute__((noinline))
#define __maybe_unused		__attribute__((unused))
#define __always_unused		__attribute__((unused))
#define __used			__attribute__((used))
#define __cold			__attribute__((cold))
#define __packed		__attribute__((packed))
#define __aligned(x)		__attribute__((aligned(x)))
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define __bpf_kfunc
#define __pure			__attribute__((pure))
#ifndef __attribute_const__
#define __attribute_const__	__attribute__((const))
#endif
#define ____cacheline_aligned	__attribute__((aligned(64)))
#define ____cacheline_aligned_in_smp ____cacheline_aligned
#define fallthrough		__attribute__((fallthrough))
#define notrace

#define barrier()		__asm__ __volatile__("" : : : "memory")

/*
 * Single-threaded userspace: plain volatile accesses are enough.  A test
 * may hook every READ_ONCE() (before the load) and every WRITE_ONCE()
 * (after the store), to run code at exactly the point where another CPU
 * could run it: a reader between two stores of a writer, a writer between
 * two loads of a reader.  A hook is off while it runs.
 */
extern void (*shim_read_hook)(void);
extern void (*shim_write_hook)(void);
void shim_run_hook(void (**hook)(void));
#define READ_ONCE(x) ({							\
	if (__builtin_expect(shim_read_hook != 0, 0))			\
		shim_run_hook(&shim_read_hook);				\
	*(const volatile __typeof__(x) *)&(x); })
#define WRITE_ONCE(x, val) do {						\
	*(volatile __typeof__(x) *)&(x) = (val);			\
	if (__builtin_expect(shim_write_hook != 0, 0))			\
		shim_run_hook(&shim_write_hook);			\
} while (0)
#define smp_store_release(p, v)	do { barrier(); WRITE_ONCE(*(p), (v)); } while (0)
#define smp_load_acquire(p)	({ __typeof__(*(p)) ___v = READ_ONCE(*(p)); barrier(); ___v; })
#define smp_mb()		barrier()
#define smp_rmb()		barrier()
#define smp_wmb()		barrier()

/* cmpxchg(ptr, old, new): returns the prior value, stores new if it was old. */
#define cmpxchg(ptr, old, new) ({					\
	__typeof__(*(ptr)) ___old = (old);				\
	__atomic_compare_exchange_n((ptr), &___old, (new), 0,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\
	___old; })
#define xchg(ptr, v)		__atomic_exchange_n((ptr), (v), __ATOMIC_SEQ_CST)

#define __same_type(a, b)	__builtin_types_compatible_p(__typeof__(a), __typeof__(b))

#ifndef __stringify
#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)
#endif

#define __UNIQUE_ID(prefix)	__PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)
#define ___PASTE(a, b)		a##b
#define __PASTE(a, b)		___PASTE(a, b)

#endif
