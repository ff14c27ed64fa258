// SPDX-License-Identifier: GPL-2.0
/*
 * bbr2-bpf: load, tune, inspect and unload the bbr2_bpf congestion control
 * (bbr2_bpf.bpf.c, embedded in this program as a libbpf skeleton).
 *
 *   bbr2-bpf load [NAME=VALUE ...]   register bbr2_bpf and bbr2_bpf_ref
 *                                    (Google's model exactly, whatever
 *                                    loss_mode says); they stay registered
 *   bbr2-bpf set NAME=VALUE ...      change tunables (all or nothing)
 *   bbr2-bpf get [NAME ...]          print tunables as NAME=VALUE
 *   bbr2-bpf show                    model state of every socket of either
 *   bbr2-bpf unload                  unregister both; open sockets keep them
 *   bbr2-bpf status                  registered or not, and where
 *
 * Options (before the command): --pin DIR (default /sys/fs/bpf/bbr2_bpf),
 * --verifier-log FILE (load: write the full verifier log there), --object
 * auto|base|tx_start (load: which embedded object; auto, the default, asks
 * the kernel's BTF, see bbr2_bpf_object.c).
 *
 * Two objects are embedded, built from one source: bbr2_bpf.bpf.o for
 * kernels whose struct tcp_congestion_ops has no cwnd_event_tx_start op
 * (before 7.1: the first transmit after idle reaches cwnd_event()), and
 * bbr2_bpf_tx.bpf.o, which also registers that op, for kernels that have
 * it (7.1 and later no longer pass that event to cwnd_event()).
 *
 * The tunables are the module's: the same names, units and ranges, checked
 * by the same code (src/bbr2_params.c) before anything is written.  They
 * live in the program's initialised global data (which starts as the
 * module's boot set), pinned as DIR/params: two struct bbr2_tunables and
 * the index of the active one.  set copies the active set, applies every
 * NAME=VALUE to the copy with bbr2_tunables_write() (a value set
 * explicitly survives a later version=N), and publishes the result
 * (bbr2_bpf_publish.h): written whole into the inactive set, the index
 * flipped, and a grace period before another set may write that set again;
 * each hook reads the index once, so it sees one whole set.  The per-CPU
 * working area and its counters (hooks skipped for want of a slot, init()
 * calls that found none, sockets initialised late, idle restarts seen) are
 * pinned as DIR/state; show and status print the counters.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/kernel.h>	/* kstrtouint(), as bbr2_params.c uses it */
#include "bbr2_params.h"
#include "bbr2_bpf_cpu.h"
#include "bbr2_bpf_object.h"
#include "bbr2_bpf_publish.h"
#include "bbr2_bpf.skel.h"
#include "bbr2_bpf_tx.skel.h"

#define DEFAULT_PIN_DIR		"/sys/fs/bpf/bbr2_bpf"
#define STATS_LOG_SIZE		(64 * 1024)
#define FULL_LOG_SIZE		(256U * 1024 * 1024)

/*
 * How long a set that was active stays untouched after the index moved
 * away from it: far longer than a hook, which runs with preemption off.
 */
#define GRACE_NS		(20 * 1000 * 1000)

typedef struct bbr2_bpf_skel__data params_t;
typedef struct bbr2_bpf_skel__bss state_t;

/* One source, so one layout of the global data in both objects. */
_Static_assert(sizeof(params_t) == sizeof(struct bbr2_bpf_tx_skel__data),
	       "the two objects' .data differ");
_Static_assert(sizeof(state_t) == sizeof(struct bbr2_bpf_tx_skel__bss),
	       "the two objects' .bss differ");

static const char *pin_dir = DEFAULT_PIN_DIR;
static const char *verifier_log_path;
static const char *object_opt = "auto";

static void __attribute__((format(printf, 1, 2))) err(const char *fmt, ...)
{
	va_list ap;

	fputs("bbr2-bpf: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static char *pin_path(const char *name)
{
	static char path[3][512];
	static int slot;
	char *p = path[slot++ % 3];

	snprintf(p, sizeof(path[0]), "%s/%s", pin_dir, name);
	return p;
}

/* ---------------------------------------------------------------------- */
/* Tunables: a userspace copy of the set, written by bbr2_params.c.       */

static struct bbr2_tunables tunables;

static bool is_tunable(const char *name)
{
	char buf[128];

	return bbr2_tunables_read(&tunables, name, buf, sizeof(buf)) > 0;
}

/*
 * Apply one NAME=VALUE to the local set, as a write to the module's
 * /sys/module/tcp_bbr2/parameters/NAME would; 0 or -1 with the reason.
 */
static int apply_one(const char *arg)
{
	const char *eq = strchr(arg, '=');
	char name[64], why[BBR2_WHY_LEN];
	size_t len;

	if (!eq || eq == arg) {
		err("'%s': expected NAME=VALUE", arg);
		return -1;
	}
	len = eq - arg;
	if (len >= sizeof(name)) {
		err("%.*s: no such parameter", (int)len, arg);
		return -1;
	}
	memcpy(name, arg, len);
	name[len] = '\0';
	if (bbr2_tunables_write(&tunables, name, eq + 1, why, sizeof(why))) {
		err("%s: Invalid argument (%s)", arg, why);
		return -1;
	}
	return 0;
}

static int apply_all(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (apply_one(argv[i])) {
			err("nothing changed");
			return -1;
		}
	return 0;
}

static void sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ns };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The pinned program data as bbr2_bpf_publish.h's memory. */
struct pinned_params {
	struct bbr2_bpf_params_mem mem;		/* first: the callbacks' m */
	volatile params_t *pd;
};

static volatile params_t *pinned_pd(struct bbr2_bpf_params_mem *m)
{
	return ((struct pinned_params *)m)->pd;
}

static u32 pinned_read_idx(struct bbr2_bpf_params_mem *m)
{
	return pinned_pd(m)->bbr2_tunables_idx;
}

static void pinned_write_idx(struct bbr2_bpf_params_mem *m, u32 idx)
{
	pinned_pd(m)->bbr2_tunables_idx = idx;
}

static u32 pinned_read_word(struct bbr2_bpf_params_mem *m, unsigned int set,
			    unsigned int word)
{
	return ((volatile u32 *)&pinned_pd(m)->bbr2_tunables_set[set & 1])[word];
}

static void pinned_write_word(struct bbr2_bpf_params_mem *m, unsigned int set,
			      unsigned int word, u32 val)
{
	((volatile u32 *)&pinned_pd(m)->bbr2_tunables_set[set & 1])[word] = val;
}

static void pinned_fence(struct bbr2_bpf_params_mem *m)
{
	__sync_synchronize();
}

/*
 * Publishes are serialised by a lock on the pin directory, and each waits
 * out GRACE_NS before it returns, so the next one never writes a set that
 * a hook may still be reading.
 */
static void pinned_grace(struct bbr2_bpf_params_mem *m)
{
	sleep_ns(GRACE_NS);
}

static struct pinned_params pinned_params(volatile params_t *pd)
{
	struct pinned_params p = {
		.mem = {
			.read_idx	= pinned_read_idx,
			.write_idx	= pinned_write_idx,
			.read_word	= pinned_read_word,
			.write_word	= pinned_write_word,
			.fence		= pinned_fence,
			.grace		= pinned_grace,
			.nwords		= sizeof(tunables) / sizeof(u32),
		},
		.pd = pd,
	};
	return p;
}

/* The active set of the program data -> the local set. */
static void params_to_table(volatile params_t *pd)
{
	struct pinned_params p = pinned_params(pd);

	bbr2_bpf_params_read(&p.mem, (u32 *)&tunables);
}

/* Publish the local set (bbr2_bpf_publish.h). */
static void table_to_params(volatile params_t *pd)
{
	struct pinned_params p = pinned_params(pd);

	bbr2_bpf_params_publish(&p.mem, (const u32 *)&tunables);
}

/*
 * The value size of the embedded object's .data (params) or .bss (state)
 * map: the section's size, which libbpf gives the map, and which can be
 * smaller than the skeleton's padded struct.
 */
static __u32 object_value_size(bool bss)
{
	static __u32 size[2];
	struct bbr2_bpf_skel *skel;

	if (!size[0]) {
		skel = bbr2_bpf_skel__open();
		if (!skel)
			return 0;
		size[0] = bpf_map__value_size(skel->maps.data);
		size[1] = bpf_map__value_size(skel->maps.bss);
		bbr2_bpf_skel__destroy(skel);
	}
	return size[bss];
}

/*
 * Map a pinned global data map (size bytes of it), after checking that it
 * is this object's (its value size); NULL (and why) if not there.
 */
static volatile void *map_pinned(const char *name, size_t size, int writable)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	void *mem;
	int fd;

	fd = bpf_obj_get(pin_path(name));
	if (fd < 0) {
		err("%s: %s (is bbr2_bpf loaded? bbr2-bpf load)",
		    pin_path(name), strerror(errno));
		return NULL;
	}
	if (bpf_obj_get_info_by_fd(fd, &info, &len) ||
	    info.value_size != object_value_size(!strcmp(name, "state"))) {
		err("%s: not this version's map", pin_path(name));
		close(fd);
		return NULL;
	}
	mem = mmap(NULL, size, PROT_READ | (writable ? PROT_WRITE : 0),
		   MAP_SHARED, fd, 0);
	close(fd);
	if (mem == MAP_FAILED) {
		err("mmap %s: %s", pin_path(name), strerror(errno));
		return NULL;
	}
	return mem;
}

static volatile params_t *map_params(int writable)
{
	return map_pinned("params", sizeof(params_t), writable);
}

/*
 * The counters of every CPU, summed: hooks skipped for want of a slot,
 * init() calls among them, and sockets a later hook initialised.
 */
static int print_counters(const char *prefix)
{
	const volatile state_t *st = map_pinned("state", sizeof(state_t), 0);
	unsigned long long overflows = 0, init_failures = 0, late_inits = 0;
	unsigned long long idle_restarts = 0;
	unsigned int i;

	if (!st)
		return -1;
	for (i = 0; i < BBR2_BPF_MAX_CPUS; i++) {
		overflows += st->bbr2_bpf_cpus[i].overflows;
		init_failures += st->bbr2_bpf_cpus[i].init_failures;
		late_inits += st->bbr2_bpf_cpus[i].late_inits;
		idle_restarts += st->bbr2_bpf_cpus[i].idle_restarts;
	}
	munmap((void *)st, sizeof(state_t));
	printf("%sslot_overflows:%llu init_failures:%llu late_inits:%llu idle_restarts:%llu\n",
	       prefix, overflows, init_failures, late_inits, idle_restarts);
	return 0;
}

static void print_param(const char *name)
{
	char buf[256];

	if (bbr2_tunables_read(&tunables, name, buf, sizeof(buf)) > 0)
		printf("%s=%s", name, buf);
}

static int cmd_get(int argc, char **argv)
{
	volatile params_t *pd = map_params(0);
	unsigned int i;
	int ret = 0;

	if (!pd)
		return 1;
	params_to_table(pd);
	munmap((void *)pd, sizeof(params_t));
	if (!argc) {
		print_param("version");
		for (i = 0; i < BBR2_NR_PARAMS; i++)
			print_param(bbr2_param_table[i].name);
		print_param("pacing_gain");
		return 0;
	}
	for (i = 0; i < (unsigned int)argc; i++) {
		if (!is_tunable(argv[i])) {
			err("%s: no such parameter", argv[i]);
			ret = 1;
			continue;
		}
		print_param(argv[i]);
	}
	return ret;
}

static int cmd_set(int argc, char **argv)
{
	volatile params_t *pd;
	int lock, ret = 1;

	if (!argc) {
		err("set: NAME=VALUE expected");
		return 2;
	}
	/* One publisher at a time: the grace period is per publish. */
	lock = open(pin_dir, O_RDONLY | O_DIRECTORY);
	if (lock < 0 || flock(lock, LOCK_EX)) {
		err("%s: %s (is bbr2_bpf loaded? bbr2-bpf load)", pin_dir,
		    strerror(errno));
		if (lock >= 0)
			close(lock);
		return 1;
	}
	pd = map_params(1);
	if (!pd)
		goto out;
	params_to_table(pd);
	if (!apply_all(argc, argv)) {
		table_to_params(pd);
		ret = 0;
	}
	munmap((void *)pd, sizeof(params_t));
out:
	close(lock);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* load / unload.                                                          */

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* The verifier's summary line ("processed N insns ..."), or "". */
static const char *stats_line(const char *log)
{
	static char line[256];
	const char *p = strstr(log, "processed ");
	size_t n;

	if (!p)
		return "";
	n = strcspn(p, "\n");
	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	memcpy(line, p, n);
	line[n] = '\0';
	return line;
}

/*
 * The object load picks: --object base|tx_start, or (auto) the one that
 * fits the running kernel's BTF; -1 if none can be chosen.
 */
static int choose_object(void)
{
	struct btf *btf;
	int obj;

	if (!strcmp(object_opt, "base"))
		return BBR2_BPF_OBJ_BASE;
	if (!strcmp(object_opt, "tx_start"))
		return BBR2_BPF_OBJ_TX_START;
	if (strcmp(object_opt, "auto")) {
		err("--object %s: expected auto, base or tx_start", object_opt);
		return -1;
	}
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		err("no kernel BTF (%s): bbr2_bpf needs CONFIG_DEBUG_INFO_BTF=y",
		    strerror(errno));
		return -1;
	}
	obj = bbr2_bpf_pick_object(btf);
	btf__free(btf);
	if (obj < 0)
		err("the kernel's BTF has no struct tcp_congestion_ops");
	return obj;
}

/*
 * libbpf reads the kernel's configuration (the object needs CONFIG_HZ) from
 * /boot/config-RELEASE or /proc/config.gz.  Kernels packaged with their
 * configuration beside their modules (Debian's from 7.x) have neither:
 * then CONFIG_HZ comes from [/usr]/lib/modules/RELEASE/config, handed to
 * libbpf as extra configuration.  NULL where libbpf finds its own.
 */
static const char *kconfig_extra(void)
{
	static const char * const dirs[] = { "/usr/lib/modules", "/lib/modules" };
	static char line[128];
	char path[512];
	struct utsname u;
	unsigned int i;
	FILE *f;

	if (uname(&u))
		return NULL;
	snprintf(path, sizeof(path), "/boot/config-%s", u.release);
	if (!access(path, R_OK) || !access("/proc/config.gz", R_OK))
		return NULL;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/config", dirs[i], u.release);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "CONFIG_HZ=", 10)) {
				fclose(f);
				return line;
			}
		fclose(f);
	}
	return NULL;
}

/* Either embedded object, opened through its skeleton. */
struct loader {
	enum bbr2_bpf_object kind;
	struct bbr2_bpf_skel *base;
	struct bbr2_bpf_tx_skel *tx;
	struct bpf_object *obj;
	params_t *data;
	struct bpf_map *data_map, *bss_map, *ops_map, *ops_ref_map;
	struct bpf_program *sockets;
};

#define LOADER_FROM_SKEL(l, s) do {					\
	(l)->obj = (s)->obj;						\
	(l)->data = (params_t *)(s)->data;				\
	(l)->data_map = (s)->maps.data;					\
	(l)->bss_map = (s)->maps.bss;					\
	(l)->ops_map = (s)->maps.bbr2_bpf;				\
	(l)->ops_ref_map = (s)->maps.bbr2_bpf_ref;			\
	(l)->sockets = (s)->progs.bbr2_bpf_sockets;			\
} while (0)

static int loader_open(struct loader *l, enum bbr2_bpf_object kind)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .kconfig = kconfig_extra());

	memset(l, 0, sizeof(*l));
	l->kind = kind;
	if (kind == BBR2_BPF_OBJ_TX_START) {
		l->tx = bbr2_bpf_tx_skel__open_opts(&opts);
		if (!l->tx)
			return -1;
		LOADER_FROM_SKEL(l, l->tx);
	} else {
		l->base = bbr2_bpf_skel__open_opts(&opts);
		if (!l->base)
			return -1;
		LOADER_FROM_SKEL(l, l->base);
	}
	return 0;
}

static int loader_load(struct loader *l)
{
	return l->tx ? bbr2_bpf_tx_skel__load(l->tx) : bbr2_bpf_skel__load(l->base);
}

static void loader_destroy(struct loader *l)
{
	bbr2_bpf_tx_skel__destroy(l->tx);
	bbr2_bpf_skel__destroy(l->base);
}

/*
 * Register one struct_ops map (bbr2_bpf or bbr2_bpf_ref) and pin it as
 * PIN.  The registration holds the programs; dropping our link without
 * detaching leaves it registered after we exit, on kernels with and
 * without struct_ops links alike.
 */
static int register_ops(struct bpf_map *map, const char *pin)
{
	struct bpf_link *link = bpf_map__attach_struct_ops(map);

	if (!link) {
		err("registering %s failed: %s", bpf_map__name(map),
		    strerror(errno));
		return -1;
	}
	bpf_link__disconnect(link);
	bpf_link__destroy(link);
	if (bpf_map__pin(map, pin_path(pin))) {
		bpf_map_delete_elem(bpf_map__fd(map), &(int){0});
		return -1;
	}
	return 0;
}

/*
 * Unregister the map pinned as PIN: new sockets can no longer choose its
 * name; those that use it hold a reference and keep running it until they
 * close.  0 if it is gone or was never pinned.
 */
static int unregister_ops(const char *pin)
{
	int fd, zero = 0, ret = 0;

	fd = bpf_obj_get(pin_path(pin));
	if (fd < 0)
		return errno == ENOENT ? 0 : 1;
	if (bpf_map_delete_elem(fd, &zero) && errno != ENOENT) {
		err("unregistering %s failed: %s", pin_path(pin),
		    strerror(errno));
		ret = 1;
	}
	close(fd);
	unlink(pin_path(pin));
	return ret;
}

static int cmd_load(int argc, char **argv)
{
	struct loader skel;
	struct bpf_program *prog;
	struct bpf_link *link;
	char *logs[16] = {};
	size_t log_size = verifier_log_path ? FULL_LOG_SIZE : STATS_LOG_SIZE;
	unsigned int n = 0, i;
	FILE *full = NULL;
	int ret = 1, kind;

	if (!access(pin_path("ops"), F_OK)) {
		err("already loaded (%s exists); bbr2-bpf unload first",
		    pin_path("ops"));
		return 1;
	}
	/* Validate everything before touching the kernel. */
	if (apply_all(argc, argv))
		return 1;
	kind = choose_object();
	if (kind < 0)
		return 1;

	libbpf_set_print(libbpf_print);
	if (loader_open(&skel, kind)) {
		err("opening the BPF object failed: %s", strerror(errno));
		return 1;
	}
	printf("object %s: %s\n", bbr2_bpf_object_name(kind),
	       !strcmp(object_opt, "auto") ? bbr2_bpf_object_reason(kind) :
	       "chosen by --object");
	fflush(stdout);
	memcpy(&skel.data->bbr2_tunables_set[0], &tunables, sizeof(tunables));
	memcpy(&skel.data->bbr2_tunables_set[1], &tunables, sizeof(tunables));
	skel.data->bbr2_tunables_idx = 0;

	bpf_object__for_each_program(prog, skel.obj) {
		if (n == sizeof(logs) / sizeof(logs[0]))
			break;
		logs[n] = calloc(1, log_size);
		if (!logs[n])
			goto out;
		bpf_program__set_log_buf(prog, logs[n], log_size);
		bpf_program__set_log_level(prog, verifier_log_path ? 1 | 4 : 4);
		n++;
	}

	if (loader_load(&skel)) {
		err("the kernel refused the program: %s", strerror(errno));
		for (i = 0; i < n; i++)
			if (logs[i][0])
				fprintf(stderr, "%s\n", logs[i]);
		goto out;
	}

	if (verifier_log_path) {
		full = fopen(verifier_log_path, "w");
		if (!full)
			err("%s: %s", verifier_log_path, strerror(errno));
	}
	i = 0;
	bpf_object__for_each_program(prog, skel.obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);

		if (i >= n)
			break;
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			memset(&info, 0, sizeof(info));
		printf("program %-24s %5u insns, %6u bytes JITed, verifier log %zu bytes: %s\n",
		       bpf_program__name(prog), info.xlated_prog_len / 8,
		       info.jited_prog_len, strlen(logs[i]),
		       stats_line(logs[i]));
		if (full)
			fprintf(full, "=== %s\n%s\n", bpf_program__name(prog),
				logs[i]);
		i++;
	}
	if (full)
		fclose(full);

	if (mkdir(pin_dir, 0700) && errno != EEXIST) {
		err("mkdir %s: %s (is bpffs mounted on /sys/fs/bpf?)", pin_dir,
		    strerror(errno));
		goto out;
	}
	if (bpf_map__pin(skel.data_map, pin_path("params")) ||
	    bpf_map__pin(skel.bss_map, pin_path("state")))
		goto out_unpin;
	link = bpf_program__attach_iter(skel.sockets, NULL);
	if (!link || bpf_link__pin(link, pin_path("sockets"))) {
		err("cannot pin the socket iterator: %s", strerror(errno));
		goto out_unpin;
	}
	bpf_link__destroy(link);	/* the pin keeps it */

	/* Register both names; a failure of the second undoes the first. */
	if (register_ops(skel.ops_map, "ops"))
		goto out_unpin;
	if (register_ops(skel.ops_ref_map, "ops_ref")) {
		unregister_ops("ops");
		goto out_unpin;
	}
	printf("bbr2_bpf and bbr2_bpf_ref registered; tunables and state under %s\n",
	       pin_dir);
	ret = 0;
	goto out;

out_unpin:
	unlink(pin_path("sockets"));
	unlink(pin_path("params"));
	unlink(pin_path("state"));
	rmdir(pin_dir);
out:
	loader_destroy(&skel);
	for (i = 0; i < n; i++)
		free(logs[i]);
	return ret;
}

static int cmd_unload(void)
{
	int ret;

	if (access(pin_path("ops"), F_OK) && access(pin_path("ops_ref"), F_OK)) {
		err("%s: %s (not loaded?)", pin_path("ops"), strerror(errno));
		return 1;
	}
	ret = unregister_ops("ops_ref");
	ret |= unregister_ops("ops");
	unlink(pin_path("sockets"));
	unlink(pin_path("params"));
	unlink(pin_path("state"));
	rmdir(pin_dir);
	return ret;
}

static int cmd_show(void)
{
	char buf[4096];
	ssize_t n;
	int fd;

	fd = open(pin_path("sockets"), O_RDONLY);
	if (fd < 0) {
		err("%s: %s (is bbr2_bpf loaded?)", pin_path("sockets"),
		    strerror(errno));
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	close(fd);
	if (print_counters("# "))
		return 1;
	return n < 0;
}

static int cmd_status(void)
{
	char avail[4096] = "";
	FILE *f = fopen("/proc/sys/net/ipv4/tcp_available_congestion_control",
			"r");
	int registered, kind;

	if (f) {
		if (!fgets(avail, sizeof(avail), f))
			avail[0] = '\0';
		fclose(f);
	}
	registered = strstr(avail, "bbr2_bpf") != NULL;
	printf("bbr2_bpf: %s; pinned under %s: %s\n",
	       registered ? "registered" : "not registered", pin_dir,
	       access(pin_path("ops"), F_OK) ? "no" : "yes");
	printf("bbr2_bpf_ref: %s\n", strstr(avail, "bbr2_bpf_ref") ?
	       "registered" : "not registered");
	kind = choose_object();
	if (kind >= 0)
		printf("bbr2_bpf: object for this kernel: %s (%s)\n",
		       bbr2_bpf_object_name(kind), bbr2_bpf_object_reason(kind));
	if (!access(pin_path("state"), F_OK))
		print_counters("bbr2_bpf: ");
	return !registered;
}

static void usage(void)
{
	fputs("usage: bbr2-bpf [--pin DIR] [--verifier-log FILE]\n"
	      "                [--object auto|base|tx_start] COMMAND\n"
	      "  load [NAME=VALUE ...]  register bbr2_bpf and bbr2_bpf_ref with these tunables\n"
	      "  set NAME=VALUE ...     change tunables (all or nothing)\n"
	      "  get [NAME ...]         print tunables\n"
	      "  show                   model state of each bbr2_bpf(_ref) socket\n"
	      "  unload                 unregister (open sockets keep it)\n"
	      "  status                 registered or not\n", stderr);
}

int main(int argc, char **argv)
{
	const char *cmd;

	tunables = bbr2_tunables_boot;
	argv++, argc--;
	while (argc >= 2 && argv[0][0] == '-') {
		if (!strcmp(argv[0], "--pin"))
			pin_dir = argv[1];
		else if (!strcmp(argv[0], "--verifier-log"))
			verifier_log_path = argv[1];
		else if (!strcmp(argv[0], "--object"))
			object_opt = argv[1];
		else
			break;
		argv += 2, argc -= 2;
	}
	if (argc < 1) {
		usage();
		return 2;
	}
	cmd = argv[0];
	argv++, argc--;
	if (!strcmp(cmd, "load"))
		return cmd_load(argc, argv);
	if (!strcmp(cmd, "set"))
		return cmd_set(argc, argv);
	if (!strcmp(cmd, "get"))
		return cmd_get(argc, argv);
	if (!strcmp(cmd, "show") && !argc)
		return cmd_show();
	if (!strcmp(cmd, "unload") && !argc)
		return cmd_unload();
	if (!strcmp(cmd, "status") && !argc)
		return cmd_status();
	usage();
	return 2;
}
