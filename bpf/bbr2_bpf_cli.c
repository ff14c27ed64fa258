// SPDX-License-Identifier: GPL-2.0
/*
 * bbr2-bpf: load, tune, inspect and unload the bbr2_bpf congestion control
 * (bbr2_bpf.bpf.c, embedded in this program as a libbpf skeleton).
 *
 *   bbr2-bpf load [NAME=VALUE ...]   register bbr2_bpf; stays registered
 *   bbr2-bpf set NAME=VALUE ...      change tunables (all or nothing)
 *   bbr2-bpf get [NAME ...]          print tunables as NAME=VALUE
 *   bbr2-bpf show                    model state of every bbr2_bpf socket
 *   bbr2-bpf unload                  unregister; open sockets keep it
 *   bbr2-bpf status                  registered or not, and where
 *
 * Options (before the command): --pin DIR (default /sys/fs/bpf/bbr2_bpf),
 * --verifier-log FILE (load: write the full verifier log there).
 *
 * The tunables are the module's: the same names, units and ranges, checked
 * by the same code (src/bbr2_params.c) before anything is written.  They
 * live in the program's initialised global data (which starts as the
 * module's boot set), pinned as DIR/params: two struct bbr2_tunables and
 * the index of the active one.  set copies the active set, applies every
 * NAME=VALUE to the copy with bbr2_tunables_write() (a value set
 * explicitly survives a later version=N), writes the result whole into the
 * inactive set, flips the index, and waits a grace period before another
 * set may write that set again; each hook reads the index once, so it sees
 * one whole set.  The per-CPU working area and its counters (hooks skipped
 * for want of a slot, init() calls that found none, sockets initialised
 * late) are pinned as DIR/state; show and status print the counters.
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
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/kernel.h>	/* kstrtouint(), as bbr2_params.c uses it */
#include "bbr2_params.h"
#include "bbr2_bpf_cpu.h"
#include "bbr2_bpf.skel.h"

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

static const char *pin_dir = DEFAULT_PIN_DIR;
static const char *verifier_log_path;

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

/* The active set of the program data -> the local set. */
static void params_to_table(const volatile params_t *pd)
{
	unsigned int idx = pd->bbr2_tunables_idx & 1;
	const volatile u32 *src = (const volatile u32 *)&pd->bbr2_tunables_set[idx];
	u32 *dst = (u32 *)&tunables;
	unsigned int i;

	for (i = 0; i < sizeof(tunables) / sizeof(u32); i++)
		dst[i] = src[i];
}

static void sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ns };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Publish the local set: write it whole into the inactive set, then make
 * that one active.  Hooks that read the index before the flip may still be
 * using the old set; it is written again only by a later publish, which
 * first waits out GRACE_NS (this one waits before returning, and publishes
 * are serialised by a lock on the pin directory).
 */
static void table_to_params(volatile params_t *pd)
{
	unsigned int next = (pd->bbr2_tunables_idx & 1) ^ 1;
	const u32 *src = (const u32 *)&tunables;
	volatile u32 *dst = (volatile u32 *)&pd->bbr2_tunables_set[next];
	unsigned int i;

	for (i = 0; i < sizeof(tunables) / sizeof(u32); i++)
		dst[i] = src[i];
	__sync_synchronize();
	pd->bbr2_tunables_idx = next;
	__sync_synchronize();
	sleep_ns(GRACE_NS);
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
	unsigned int i;

	if (!st)
		return -1;
	for (i = 0; i < BBR2_BPF_MAX_CPUS; i++) {
		overflows += st->bbr2_bpf_cpus[i].overflows;
		init_failures += st->bbr2_bpf_cpus[i].init_failures;
		late_inits += st->bbr2_bpf_cpus[i].late_inits;
	}
	munmap((void *)st, sizeof(state_t));
	printf("%sslot_overflows:%llu init_failures:%llu late_inits:%llu\n",
	       prefix, overflows, init_failures, late_inits);
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

static int cmd_load(int argc, char **argv)
{
	struct bbr2_bpf_skel *skel;
	struct bpf_program *prog;
	struct bpf_link *link;
	char *logs[16] = {};
	size_t log_size = verifier_log_path ? FULL_LOG_SIZE : STATS_LOG_SIZE;
	unsigned int n = 0, i;
	FILE *full = NULL;
	int ret = 1;

	if (!access(pin_path("ops"), F_OK)) {
		err("already loaded (%s exists); bbr2-bpf unload first",
		    pin_path("ops"));
		return 1;
	}
	/* Validate everything before touching the kernel. */
	if (apply_all(argc, argv))
		return 1;

	libbpf_set_print(libbpf_print);
	skel = bbr2_bpf_skel__open();
	if (!skel) {
		err("opening the BPF object failed: %s", strerror(errno));
		return 1;
	}
	memcpy(&skel->data->bbr2_tunables_set[0], &tunables, sizeof(tunables));
	memcpy(&skel->data->bbr2_tunables_set[1], &tunables, sizeof(tunables));
	skel->data->bbr2_tunables_idx = 0;

	bpf_object__for_each_program(prog, skel->obj) {
		if (n == sizeof(logs) / sizeof(logs[0]))
			break;
		logs[n] = calloc(1, log_size);
		if (!logs[n])
			goto out;
		bpf_program__set_log_buf(prog, logs[n], log_size);
		bpf_program__set_log_level(prog, verifier_log_path ? 1 | 4 : 4);
		n++;
	}

	if (bbr2_bpf_skel__load(skel)) {
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
	bpf_object__for_each_program(prog, skel->obj) {
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
	if (bpf_map__pin(skel->maps.data, pin_path("params")) ||
	    bpf_map__pin(skel->maps.bss, pin_path("state")))
		goto out_unpin;
	link = bpf_program__attach_iter(skel->progs.bbr2_bpf_sockets, NULL);
	if (!link || bpf_link__pin(link, pin_path("sockets"))) {
		err("cannot pin the socket iterator: %s", strerror(errno));
		goto out_unpin;
	}
	bpf_link__destroy(link);	/* the pin keeps it */

	/*
	 * Register.  The registration holds the program; dropping our link
	 * without detaching leaves it registered after we exit, on kernels
	 * with and without struct_ops links alike.
	 */
	link = bpf_map__attach_struct_ops(skel->maps.bbr2_bpf);
	if (!link) {
		err("registering bbr2_bpf failed: %s", strerror(errno));
		goto out_unpin;
	}
	bpf_link__disconnect(link);
	bpf_link__destroy(link);
	if (bpf_map__pin(skel->maps.bbr2_bpf, pin_path("ops"))) {
		bpf_map_delete_elem(bpf_map__fd(skel->maps.bbr2_bpf),
				    &(int){0});
		goto out_unpin;
	}
	printf("bbr2_bpf registered; tunables and state under %s\n", pin_dir);
	ret = 0;
	goto out;

out_unpin:
	unlink(pin_path("sockets"));
	unlink(pin_path("params"));
	unlink(pin_path("state"));
	rmdir(pin_dir);
out:
	bbr2_bpf_skel__destroy(skel);
	for (i = 0; i < n; i++)
		free(logs[i]);
	return ret;
}

static int cmd_unload(void)
{
	int fd, zero = 0, ret = 0;

	fd = bpf_obj_get(pin_path("ops"));
	if (fd < 0) {
		err("%s: %s (not loaded?)", pin_path("ops"), strerror(errno));
		return 1;
	}
	/*
	 * Unregister: new sockets can no longer choose bbr2_bpf; those that
	 * use it hold a reference and keep running it until they close.
	 */
	if (bpf_map_delete_elem(fd, &zero) && errno != ENOENT) {
		err("unregistering bbr2_bpf failed: %s", strerror(errno));
		ret = 1;
	}
	close(fd);
	unlink(pin_path("ops"));
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
	int registered;

	if (f) {
		if (!fgets(avail, sizeof(avail), f))
			avail[0] = '\0';
		fclose(f);
	}
	registered = strstr(avail, "bbr2_bpf") != NULL;
	printf("bbr2_bpf: %s; pinned under %s: %s\n",
	       registered ? "registered" : "not registered", pin_dir,
	       access(pin_path("ops"), F_OK) ? "no" : "yes");
	if (!access(pin_path("state"), F_OK))
		print_counters("bbr2_bpf: ");
	return !registered;
}

static void usage(void)
{
	fputs("usage: bbr2-bpf [--pin DIR] [--verifier-log FILE] COMMAND\n"
	      "  load [NAME=VALUE ...]  register bbr2_bpf with these tunables\n"
	      "  set NAME=VALUE ...     change tunables (all or nothing)\n"
	      "  get [NAME ...]         print tunables\n"
	      "  show                   model state of each bbr2_bpf socket\n"
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
