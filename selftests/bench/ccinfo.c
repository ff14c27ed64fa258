// SPDX-License-Identifier: GPL-2.0
/*
 * ccinfo: sample TCP_INFO and TCP_CC_INFO of the sockets other processes
 * (iperf3) hold, for the peer benchmark (selftests/bench/).
 *
 *   ccinfo DST_IPV4 PERIOD_MS OUT [COMM]
 *
 * Every PERIOD_MS it walks /proc for processes named COMM (default iperf3),
 * borrows each of their TCP sockets connected to DST_IPV4 with
 * pidfd_getfd(2) (root: same check as ptrace), reads TCP_INFO,
 * TCP_CONGESTION and TCP_CC_INFO, closes the borrowed descriptor again (the
 * owner's socket is untouched) and appends one line per socket to OUT:
 *
 *   <epoch_s> <sport>><dport> cc=<name> ca_state=<n> rtt_us= rttvar_us=
 *     cwnd= ssthresh= unacked= lost= retrans_total= bytes_acked=
 *     pacing_rate= delivery_rate= [info=<len> bw= min_rtt_us= pacing_gain=
 *     cwnd_gain= [version= mode= phase= bw_hi= bw_lo= inflight_lo=
 *     inflight_hi= extra_acked=]]
 *
 * Rates in bytes/s, gains in 1/256.  The bracketed part is what the CC's
 * get_info() returned: 20 bytes (the stock struct tcp_bbr_info of BBRv1 and
 * of tcp_bbr2) or 52 bytes (Google's BBRv3 patch extends the struct with
 * bw_hi, bw_lo, mode, phase, version, inflight_lo/hi, extra_acked).  The
 * extended layout is declared here from the patch's uapi description
 * (include/uapi/linux/inet_diag.h), since distro headers lack it.  "-1"
 * stands for an unbounded ("~0") bound.
 *
 * Built static by the benchmark so it runs in the peer kernel's initramfs.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef TCP_CC_INFO
#define TCP_CC_INFO 26
#endif

/* Google's BBRv3 struct tcp_bbr_info: the stock 20 bytes, then 32 more. */
struct bbr3_cc_info {
	__u32 bw_lsb, bw_msb;	/* bw in use, bytes/s */
	__u32 min_rtt_us;
	__u32 pacing_gain, cwnd_gain;
	__u32 bw_hi_lsb, bw_hi_msb;	/* long-term max bw, bytes/s */
	__u32 bw_lo_lsb, bw_lo_msb;	/* short-term bound, ~0 = none */
	__u8 mode, phase, pad, version;
	__u32 inflight_lo, inflight_hi, extra_acked;
};

#define STOCK_INFO_LEN 20

_Static_assert(sizeof(struct bbr3_cc_info) == 52, "BBRv3 info is 52 bytes");

static __u64 join64(__u32 lsb, __u32 msb)
{
	return (__u64)msb << 32 | lsb;
}

static void print_bound(FILE *out, const char *name, __u64 v, __u64 none)
{
	if (v == none)
		fprintf(out, " %s=-1", name);
	else
		fprintf(out, " %s=%llu", name, (unsigned long long)v);
}

static void sample_socket(FILE *out, double now, int fd, struct in_addr dst)
{
	struct sockaddr_in peer, self;
	socklen_t len;
	int domain, proto;
	struct tcp_info ti;
	struct bbr3_cc_info ci;
	char cc[16];

	len = sizeof(domain);
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) || domain != AF_INET)
		return;
	len = sizeof(proto);
	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) || proto != IPPROTO_TCP)
		return;
	len = sizeof(peer);
	if (getpeername(fd, (struct sockaddr *)&peer, &len) ||
	    peer.sin_addr.s_addr != dst.s_addr)
		return;
	len = sizeof(self);
	if (getsockname(fd, (struct sockaddr *)&self, &len))
		return;
	memset(&ti, 0, sizeof(ti));
	len = sizeof(ti);
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return;
	memset(cc, 0, sizeof(cc));
	len = sizeof(cc) - 1;
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, &len))
		strcpy(cc, "?");

	fprintf(out, "%.3f %u>%u cc=%s ca_state=%u", now, ntohs(self.sin_port),
		ntohs(peer.sin_port), cc, ti.tcpi_ca_state);
	fprintf(out, " rtt_us=%u rttvar_us=%u cwnd=%u ssthresh=%u unacked=%u",
		ti.tcpi_rtt, ti.tcpi_rttvar, ti.tcpi_snd_cwnd,
		ti.tcpi_snd_ssthresh, ti.tcpi_unacked);
	fprintf(out, " lost=%u retrans_total=%u bytes_acked=%llu",
		ti.tcpi_lost, ti.tcpi_total_retrans,
		(unsigned long long)ti.tcpi_bytes_acked);
	fprintf(out, " pacing_rate=%llu delivery_rate=%llu",
		(unsigned long long)ti.tcpi_pacing_rate,
		(unsigned long long)ti.tcpi_delivery_rate);

	memset(&ci, 0, sizeof(ci));
	len = sizeof(ci);
	if (!getsockopt(fd, IPPROTO_TCP, TCP_CC_INFO, &ci, &len) &&
	    len >= STOCK_INFO_LEN) {
		fprintf(out, " info=%u bw=%llu min_rtt_us=%u pacing_gain=%u cwnd_gain=%u",
			len, (unsigned long long)join64(ci.bw_lsb, ci.bw_msb),
			ci.min_rtt_us, ci.pacing_gain, ci.cwnd_gain);
		if (len >= sizeof(ci)) {
			fprintf(out, " version=%u mode=%u phase=%u",
				ci.version, ci.mode, ci.phase);
			print_bound(out, "bw_hi",
				    join64(ci.bw_hi_lsb, ci.bw_hi_msb), ~0ULL);
			print_bound(out, "bw_lo",
				    join64(ci.bw_lo_lsb, ci.bw_lo_msb), ~0ULL);
			print_bound(out, "inflight_lo", ci.inflight_lo, ~0U);
			print_bound(out, "inflight_hi", ci.inflight_hi, ~0U);
			fprintf(out, " extra_acked=%u", ci.extra_acked);
		}
	}
	fputc('\n', out);
}

static int comm_is(const char *pid, const char *want)
{
	char path[300], comm[64];
	FILE *f;
	int ok = 0;

	snprintf(path, sizeof(path), "/proc/%s/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(comm, sizeof(comm), f)) {
		comm[strcspn(comm, "\n")] = '\0';
		ok = !strcmp(comm, want);
	}
	fclose(f);
	return ok;
}

static void sample_process(FILE *out, double now, const char *pid,
			   struct in_addr dst)
{
	char path[300], link[64];
	struct dirent *de;
	DIR *fds;
	int pidfd;

	pidfd = syscall(SYS_pidfd_open, atoi(pid), 0);
	if (pidfd < 0)
		return;
	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	fds = opendir(path);
	if (!fds) {
		close(pidfd);
		return;
	}
	while ((de = readdir(fds))) {
		char fdpath[600];
		ssize_t n;
		int fd;

		if (de->d_name[0] == '.')
			continue;
		snprintf(fdpath, sizeof(fdpath), "%s/%s", path, de->d_name);
		n = readlink(fdpath, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (strncmp(link, "socket:", 7))
			continue;
		fd = syscall(SYS_pidfd_getfd, pidfd, atoi(de->d_name), 0);
		if (fd < 0)
			continue;
		sample_socket(out, now, fd, dst);
		close(fd);
	}
	closedir(fds);
	close(pidfd);
}

int main(int argc, char **argv)
{
	const char *comm = argc > 4 ? argv[4] : "iperf3";
	struct timespec period, ts;
	struct in_addr dst;
	long period_ms;
	FILE *out;

	if (argc < 4 || inet_pton(AF_INET, argv[1], &dst) != 1) {
		fprintf(stderr, "usage: %s DST_IPV4 PERIOD_MS OUT [COMM]\n", argv[0]);
		return 2;
	}
	period_ms = atol(argv[2]);
	if (period_ms <= 0)
		period_ms = 100;
	period.tv_sec = period_ms / 1000;
	period.tv_nsec = (period_ms % 1000) * 1000000L;
	out = fopen(argv[3], "a");
	if (!out) {
		perror(argv[3]);
		return 1;
	}
	for (;;) {
		struct dirent *de;
		DIR *proc;
		double now;

		clock_gettime(CLOCK_REALTIME, &ts);
		now = ts.tv_sec + ts.tv_nsec / 1e9;
		proc = opendir("/proc");
		if (!proc)
			return 1;
		while ((de = readdir(proc))) {
			if (de->d_name[0] < '1' || de->d_name[0] > '9')
				continue;
			if (comm_is(de->d_name, comm))
				sample_process(out, now, de->d_name, dst);
		}
		closedir(proc);
		fflush(out);
		nanosleep(&period, NULL);
	}
}
