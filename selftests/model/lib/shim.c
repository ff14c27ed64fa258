// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace kernel shim's runtime: clock and jiffies, the deterministic
 * PRNG behind get_random_u32(), WARN/BUG reporting, kmalloc accounting,
 * the module and module-parameter registries, kstrto*() and sysfs_emit().
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <ctype.h>

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/random.h>
#include <net/sock.h>
#include <shim.h>

/* ---- clock ---- */

u64 shim_clock_ns;
static unsigned long shim_jiffies_base = INITIAL_JIFFIES;
unsigned long jiffies = INITIAL_JIFFIES;

void shim_clock_set_ns(u64 ns)
{
	shim_clock_ns = ns;
	jiffies = shim_jiffies_base + (unsigned long)(ns / (NSEC_PER_SEC / HZ));
}

void shim_clock_set_jiffies_base(unsigned long j)
{
	shim_jiffies_base = j;
	shim_clock_set_ns(shim_clock_ns);
}

struct net init_net = {
	.ipv4 = {
		.sysctl_tcp_ecn = 2,
		.sysctl_tcp_min_tso_segs = 2,
		.sysctl_tcp_tso_rtt_log = 9,
		.sysctl_tcp_pacing_ss_ratio = 200,
		.sysctl_tcp_pacing_ca_ratio = 120,
		.sysctl_tcp_reordering = 3,
		.sysctl_tcp_min_rtt_wlen = 300,
		.sysctl_tcp_slow_start_after_idle = 1,
		.sysctl_tcp_recovery = 1,
	},
};

/* ---- PRNG: splitmix64, deterministic per seed ---- */

static u64 shim_prng_state = 0x6a09e667f3bcc908ULL;

void shim_prandom_seed(u64 seed)
{
	shim_prng_state = seed ^ 0x9e3779b97f4a7c15ULL;
}

u64 get_random_u64(void)
{
	u64 z = (shim_prng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u32 get_random_u32(void)
{
	return (u32)(get_random_u64() >> 32);
}

void get_random_bytes(void *buf, size_t len)
{
	u8 *p = buf;

	while (len) {
		u64 r = get_random_u64();
		size_t n = len < 8 ? len : 8;

		memcpy(p, &r, n);
		p += n;
		len -= n;
	}
}

/* ---- WARN / BUG / debug ---- */

unsigned long shim_warn_count;
int shim_debug;
int shim_quiet;

static void __attribute__((constructor)) shim_env_init(void)
{
	const char *d = getenv("SHIM_DEBUG");

	shim_debug = d && *d && strcmp(d, "0");
}

void shim_warn(const char *file, int line, const char *cond)
{
	shim_warn_count++;
	fprintf(stderr, "WARNING: %s:%d: WARN_ON(%s)\n", file, line, cond);
}

void shim_bug(const char *file, int line, const char *cond)
{
	fprintf(stderr, "kernel BUG at %s:%d: %s\n", file, line, cond);
	abort();
}

void shim_div0(const char *file, int line, const char *what)
{
	fprintf(stderr, "divide error: %s by zero at %s:%d\n", what, file, line);
	abort();
}

/* ---- access hooks and RCU ---- */

void (*shim_read_hook)(void);
void (*shim_write_hook)(void);

void shim_run_hook(void (**hook)(void))
{
	void (*fn)(void) = *hook;

	*hook = NULL;
	fn();
	if (!*hook)
		*hook = fn;
}

int shim_rcu_depth;
static struct rcu_head *shim_rcu_pending;

void shim_kfree_rcu(void *obj, struct rcu_head *head)
{
	if (!shim_rcu_depth) {
		kfree(obj);
		return;
	}
	head->obj = obj;
	head->next = shim_rcu_pending;
	shim_rcu_pending = head;
}

void shim_rcu_read_unlock(void)
{
	struct rcu_head *h;

	BUG_ON(shim_rcu_depth <= 0);
	if (--shim_rcu_depth)
		return;
	while ((h = shim_rcu_pending)) {
		shim_rcu_pending = h->next;
		kfree(h->obj);
	}
}

/* ---- tracepoints ---- */

#include <linux/tracepoint.h>

#define SHIM_MAX_TRACE_EVENTS	32

bool shim_trace_on;
static struct {
	const char *name;
	unsigned long hits;
} shim_trace_events[SHIM_MAX_TRACE_EVENTS];

void shim_trace_hit(const char *name)
{
	unsigned int i;

	for (i = 0; i < SHIM_MAX_TRACE_EVENTS; i++) {
		if (!shim_trace_events[i].name)
			shim_trace_events[i].name = name;
		if (!strcmp(shim_trace_events[i].name, name)) {
			shim_trace_events[i].hits++;
			return;
		}
	}
}

unsigned long shim_trace_hits(const char *name)
{
	unsigned int i;

	for (i = 0; i < SHIM_MAX_TRACE_EVENTS && shim_trace_events[i].name; i++)
		if (!strcmp(shim_trace_events[i].name, name))
			return shim_trace_events[i].hits;
	return 0;
}

void shim_trace_reset(void)
{
	memset(shim_trace_events, 0, sizeof(shim_trace_events));
}

/* ---- kmalloc ---- */

long shim_kmalloc_live;
long shim_kmalloc_total;
long shim_kmalloc_fail_after = -1;

void *kmalloc(size_t size, gfp_t flags)
{
	void *p;

	if (shim_kmalloc_fail_after == 0)
		return NULL;
	if (shim_kmalloc_fail_after > 0)
		shim_kmalloc_fail_after--;
	p = (flags & __GFP_ZERO) ? calloc(1, size ? size : 1) : malloc(size ? size : 1);
	if (p) {
		shim_kmalloc_live++;
		shim_kmalloc_total++;
	}
	return p;
}

void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return kmalloc(n * size, flags);
}

void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

void kfree(const void *p)
{
	if (!p)
		return;
	shim_kmalloc_live--;
	free((void *)p);
}

/* ---- modules ---- */

#define SHIM_MAX_MODULES 16

struct shim_module {
	const char *name;
	initcall_t init;
	exitcall_t exit;
	const char *license;
	bool loaded;
};

static struct shim_module shim_modules[SHIM_MAX_MODULES];
static unsigned int shim_nr_modules;

static struct shim_module *shim_module_get(const char *name, bool create)
{
	unsigned int i;

	for (i = 0; i < shim_nr_modules; i++)
		if (!strcmp(shim_modules[i].name, name))
			return &shim_modules[i];
	if (!create)
		return NULL;
	if (shim_nr_modules == SHIM_MAX_MODULES) {
		fprintf(stderr, "shim: too many modules\n");
		abort();
	}
	shim_modules[shim_nr_modules].name = name;
	return &shim_modules[shim_nr_modules++];
}

void shim_module_register_init(const char *modname, initcall_t fn)
{
	shim_module_get(modname, true)->init = fn;
}

void shim_module_register_exit(const char *modname, exitcall_t fn)
{
	shim_module_get(modname, true)->exit = fn;
}

void shim_module_register_license(const char *modname, const char *license)
{
	shim_module_get(modname, true)->license = license;
}

/* The licenses include/linux/license.h accepts as GPL-compatible. */
static bool shim_license_is_gpl_compatible(const char *l)
{
	static const char *const ok[] = {
		"GPL", "GPL v2", "GPL and additional rights", "Dual BSD/GPL",
		"Dual MIT/GPL", "Dual MPL/GPL",
	};
	unsigned int i;

	for (i = 0; l && i < ARRAY_SIZE(ok); i++)
		if (!strcmp(l, ok[i]))
			return true;
	return false;
}

static int shim_module_do_load(struct shim_module *m)
{
	int err = 0;

	if (m->loaded)
		return 0;
	if (m->init && !shim_license_is_gpl_compatible(m->license)) {
		fprintf(stderr, "%s: module license '%s' taints kernel; "
			"GPL-only symbols (tcp_register_congestion_control) unavailable\n",
			m->name, m->license ? m->license : "(missing MODULE_LICENSE)");
		return -ENOENT;
	}
	if (m->init)
		err = m->init();
	if (err) {
		fprintf(stderr, "%s: init failed: %d\n", m->name, err);
		return err;
	}
	m->loaded = true;
	return 0;
}

int shim_modules_load(void)
{
	unsigned int i;
	int err, first = 0;

	for (i = 0; i < shim_nr_modules; i++) {
		err = shim_module_do_load(&shim_modules[i]);
		if (err && !first)
			first = err;
	}
	return first;
}

void shim_modules_unload(void)
{
	unsigned int i = shim_nr_modules;

	while (i--)
		shim_module_unload(shim_modules[i].name);
}

int shim_module_load(const char *modname)
{
	struct shim_module *m = shim_module_get(modname, false);

	return m ? shim_module_do_load(m) : -ENOENT;
}

int shim_module_unload(const char *modname)
{
	struct shim_module *m = shim_module_get(modname, false);

	if (!m)
		return -ENOENT;
	if (m->loaded && m->exit)
		m->exit();
	m->loaded = false;
	return 0;
}

int shim_module_is_loaded(const char *modname)
{
	struct shim_module *m = shim_module_get(modname, false);

	return m && m->loaded;
}

/* ---- module parameters ---- */

#define SHIM_MAX_PARAMS 256

static struct {
	const char *mod;
	const struct kernel_param *kp;
} shim_params[SHIM_MAX_PARAMS];
static unsigned int shim_nr_params;

void shim_param_register(const char *modname, const struct kernel_param *kp)
{
	if (shim_nr_params == SHIM_MAX_PARAMS) {
		fprintf(stderr, "shim: too many module parameters\n");
		abort();
	}
	shim_params[shim_nr_params].mod = modname;
	shim_params[shim_nr_params].kp = kp;
	shim_nr_params++;
}

static const struct kernel_param *shim_param_find(const char *mod, const char *name)
{
	unsigned int i;

	for (i = 0; i < shim_nr_params; i++)
		if (!strcmp(shim_params[i].mod, mod) &&
		    !strcmp(shim_params[i].kp->name, name))
			return shim_params[i].kp;
	return NULL;
}

const struct kernel_param *shim_param_nth(const char *modname, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < shim_nr_params; i++)
		if (!strcmp(shim_params[i].mod, modname) && n-- == 0)
			return shim_params[i].kp;
	return NULL;
}

int shim_param_set(const char *modname, const char *name, const char *val)
{
	const struct kernel_param *kp = shim_param_find(modname, name);

	if (!kp)
		return -ENOENT;
	if (!kp->ops->set)
		return -EPERM;
	return kp->ops->set(val, kp);
}

int shim_param_get(const char *modname, const char *name, char *buf)
{
	const struct kernel_param *kp = shim_param_find(modname, name);

	if (!kp)
		return -ENOENT;
	if (!kp->ops->get)
		return -EPERM;
	return kp->ops->get(buf, kp);
}

/* ---- kstrto*: whole string (one trailing newline allowed), like lib/kstrtox.c ---- */

static int shim_parse_ull(const char *s, unsigned int base, unsigned long long *res)
{
	char *end;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-')
		return -EINVAL;
	if (*s == '+')
		s++;
	errno = 0;
	*res = strtoull(s, &end, base);
	if (end == s)
		return -EINVAL;
	if (*end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	return 0;
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	return shim_parse_ull(s, base, res);
}

int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long v;
	int err;

	if (s && *s == '-') {
		err = shim_parse_ull(s + 1, base, &v);
		if (err)
			return err;
		if (v > (unsigned long long)LLONG_MAX + 1)
			return -ERANGE;
		*res = -(long long)v;
		return 0;
	}
	err = shim_parse_ull(s, base, &v);
	if (err)
		return err;
	if (v > LLONG_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}

#define SHIM_KSTRTO_U(name, type, maxv)					\
int name(const char *s, unsigned int base, type *res)			\
{									\
	unsigned long long v;						\
	int err = kstrtoull(s, base, &v);				\
	if (err)							\
		return err;						\
	if (v > (maxv))							\
		return -ERANGE;						\
	*res = (type)v;							\
	return 0;							\
}
#define SHIM_KSTRTO_S(name, type, minv, maxv)				\
int name(const char *s, unsigned int base, type *res)			\
{									\
	long long v;							\
	int err = kstrtoll(s, base, &v);				\
	if (err)							\
		return err;						\
	if (v < (minv) || v > (maxv))					\
		return -ERANGE;						\
	*res = (type)v;							\
	return 0;							\
}

SHIM_KSTRTO_U(kstrtoul, unsigned long, ULONG_MAX)
SHIM_KSTRTO_U(kstrtouint, unsigned int, UINT_MAX)
SHIM_KSTRTO_U(kstrtou16, u16, 0xffff)
SHIM_KSTRTO_U(kstrtou8, u8, 0xff)
SHIM_KSTRTO_S(kstrtol, long, LONG_MIN, LONG_MAX)
SHIM_KSTRTO_S(kstrtoint, int, INT_MIN, INT_MAX)
SHIM_KSTRTO_S(kstrtos32, s32, INT_MIN, INT_MAX)

int kstrtobool(const char *s, bool *res)
{
	if (!s)
		return -EINVAL;
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*res = true;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*res = false;
		return 0;
	case 'o': case 'O':
		if (s[1] == 'n' || s[1] == 'N') {
			*res = true;
			return 0;
		}
		if (s[1] == 'f' || s[1] == 'F') {
			*res = false;
			return 0;
		}
		break;
	}
	return -EINVAL;
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
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

int sysfs_emit(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PAGE_SIZE, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return n >= (int)PAGE_SIZE ? (int)PAGE_SIZE - 1 : n;
}

int sysfs_emit_at(char *buf, int at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (at < 0 || at >= (int)PAGE_SIZE)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf + at, PAGE_SIZE - at, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return n >= (int)PAGE_SIZE - at ? (int)PAGE_SIZE - at - 1 : n;
}

/* ---- param_ops_* (kernel/params.c semantics) ---- */

#define SHIM_STD_PARAM(name, type, fmt, strtolfn)			\
int param_set_##name(const char *val, const struct kernel_param *kp)	\
{									\
	return strtolfn(val, 0, (type *)kp->arg);			\
}									\
int param_get_##name(char *buffer, const struct kernel_param *kp)	\
{									\
	return scnprintf(buffer, PAGE_SIZE, fmt "\n", *((type *)kp->arg)); \
}									\
const struct kernel_param_ops param_ops_##name = {			\
	.set = param_set_##name,					\
	.get = param_get_##name,					\
};

SHIM_STD_PARAM(byte, unsigned char, "%hhu", kstrtou8)
SHIM_STD_PARAM(ushort, unsigned short, "%hu", kstrtou16)
SHIM_STD_PARAM(int, int, "%i", kstrtoint)
SHIM_STD_PARAM(uint, unsigned int, "%u", kstrtouint)
SHIM_STD_PARAM(long, long, "%li", kstrtol)
SHIM_STD_PARAM(ulong, unsigned long, "%lu", kstrtoul)
SHIM_STD_PARAM(ullong, unsigned long long, "%llu", kstrtoull)

static int shim_kstrtoshort(const char *s, unsigned int base, short *res)
{
	long long v;
	int err = kstrtoll(s, base, &v);

	if (err)
		return err;
	if (v < SHRT_MIN || v > SHRT_MAX)
		return -ERANGE;
	*res = (short)v;
	return 0;
}
SHIM_STD_PARAM(short, short, "%hi", shim_kstrtoshort)

int param_set_uint_minmax(const char *val, const struct kernel_param *kp,
			  unsigned int min, unsigned int max)
{
	unsigned int num;
	int ret;

	if (!val)
		return -EINVAL;
	ret = kstrtouint(val, 0, &num);
	if (ret)
		return ret;
	if (num < min || num > max)
		return -EINVAL;
	*((unsigned int *)kp->arg) = num;
	return 0;
}

int param_set_hexint(const char *val, const struct kernel_param *kp)
{
	return kstrtouint(val, 0, (unsigned int *)kp->arg);
}

int param_get_hexint(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%#08x\n", *((unsigned int *)kp->arg));
}

const struct kernel_param_ops param_ops_hexint = {
	.set = param_set_hexint,
	.get = param_get_hexint,
};

int param_set_bool(const char *val, const struct kernel_param *kp)
{
	if (!val)
		val = "1";
	return kstrtobool(val, (bool *)kp->arg);
}

int param_get_bool(char *buffer, const struct kernel_param *kp)
{
	return sprintf(buffer, "%c\n", *(bool *)kp->arg ? 'Y' : 'N');
}

const struct kernel_param_ops param_ops_bool = {
	.flags = KERNEL_PARAM_OPS_FL_NOARG,
	.set = param_set_bool,
	.get = param_get_bool,
};

int param_set_invbool(const char *val, const struct kernel_param *kp)
{
	bool b;
	int err = kstrtobool(val ? val : "1", &b);

	if (!err)
		*(bool *)kp->arg = !b;
	return err;
}

int param_get_invbool(char *buffer, const struct kernel_param *kp)
{
	return sprintf(buffer, "%c\n", *(bool *)kp->arg ? 'N' : 'Y');
}

const struct kernel_param_ops param_ops_invbool = {
	.set = param_set_invbool,
	.get = param_get_invbool,
};

int param_set_charp(const char *val, const struct kernel_param *kp)
{
	char *s = strdup(val);

	if (!s)
		return -ENOMEM;
	*(char **)kp->arg = s;	/* leaks the previous value, harmless here */
	return 0;
}

int param_get_charp(char *buffer, const struct kernel_param *kp)
{
	const char *s = *(char **)kp->arg;

	return scnprintf(buffer, PAGE_SIZE, "%s\n", s ? s : "(null)");
}

const struct kernel_param_ops param_ops_charp = {
	.set = param_set_charp,
	.get = param_get_charp,
};

int param_set_string(const char *val, const struct kernel_param *kp)
{
	if (strlen(val) + 1 > kp->str->maxlen)
		return -ENOSPC;
	strcpy(kp->str->string, val);
	return 0;
}

int param_get_string(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%s\n", kp->str->string);
}

const struct kernel_param_ops param_ops_string = {
	.set = param_set_string,
	.get = param_get_string,
};

/* Arrays: "a,b,c" sets elements 0..2 and *num = 3, as kernel/params.c. */
static int param_array_set(const char *val, const struct kernel_param *kp)
{
	const struct kparam_array *arr = kp->arr;
	char tmp[1024];
	char *p, *save = NULL;
	unsigned int n = 0;
	int err;

	if (strlen(val) >= sizeof(tmp))
		return -ENOSPC;
	strcpy(tmp, val);
	p = strchr(tmp, '\n');
	if (p)
		*p = 0;
	for (p = strtok_r(tmp, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		struct kernel_param elem = {
			.name = kp->name, .ops = arr->ops, .perm = kp->perm,
			.arg = (char *)arr->elem + (size_t)n * arr->elemsize,
		};
		if (n >= arr->max)
			return -EINVAL;
		err = arr->ops->set(p, &elem);
		if (err)
			return err;
		n++;
	}
	if (!n)
		return -EINVAL;
	if (arr->num)
		*arr->num = n;
	return 0;
}

static int param_array_get(char *buffer, const struct kernel_param *kp)
{
	const struct kparam_array *arr = kp->arr;
	unsigned int i, num = arr->num ? *arr->num : arr->max;
	int off = 0, ret;

	for (i = 0; i < num; i++) {
		struct kernel_param elem = {
			.name = kp->name, .ops = arr->ops, .perm = kp->perm,
			.arg = (char *)arr->elem + (size_t)i * arr->elemsize,
		};
		if (i)
			buffer[off - 1] = ',';	/* replace the newline */
		ret = arr->ops->get(buffer + off, &elem);
		if (ret < 0)
			return ret;
		off += ret;
	}
	buffer[off] = 0;
	return off;
}

const struct kernel_param_ops param_array_ops = {
	.set = param_array_set,
	.get = param_array_get,
};
