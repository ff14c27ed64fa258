/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers for the bbr2 behaviour tests: its state (src/bbr2.h) by name. */
#ifndef _BBR2_UTIL_H
#define _BBR2_UTIL_H

#include "model_util.h"
#include "bbr2.h"

static inline const struct bbr2 *bbr2_state(struct sock *sk)
{
	return inet_csk_ca(sk);
}

static inline const char *bbr2_mode_name(unsigned int mode)
{
	switch (mode) {
	case BBR2_STARTUP:	return "STARTUP";
	case BBR2_DRAIN:	return "DRAIN";
	case BBR2_PROBE_BW:	return "PROBE_BW";
	case BBR2_PROBE_RTT:	return "PROBE_RTT";
	}
	return "?";
}

/* Sets a tcp_bbr2 module parameter as `echo val > /sys/module/...` does;
 * a test that changes one must restore it (they are global). */
static inline int bbr2_set_param(const char *name, const char *val)
{
	return shim_param_set("tcp_bbr2", name, val);
}

/*
 * Every tcp_bbr2 parameter back to following the version's default, and
 * the version back to 3: what a test must leave behind.
 */
static inline void bbr2_params_reset(void)
{
	const struct kernel_param *kp;
	unsigned int i, pass;

	/* twice: a rule between two parameters may refuse the first */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; (kp = shim_param_nth("tcp_bbr2", i)); i++)
			kp->ops->set("default", kp);
	if (!shim_param_set("tcp_bbr2", "version", "default"))
		return;
	/* a module without "default": version=3 reloads every default */
	shim_param_set("tcp_bbr2", "version", "3");
}

/* A scalar tcp_bbr2 parameter's current value, as sysfs shows it. */
static inline u32 bbr2_get_param(const char *name)
{
	char buf[PAGE_SIZE];

	if (shim_param_get("tcp_bbr2", name, buf) <= 0)
		return 0;
	return (u32)strtoul(buf, NULL, 0);
}

/* FNV-1a over n bytes into *h (start at BBR2_FNV_INIT): a digest of a
 * socket's state after every ACK, compared between runs. */
#define BBR2_FNV_INIT	0xcbf29ce484222325ULL

static inline void bbr2_fnv(u64 *h, const void *p, size_t n)
{
	const u8 *b = p;

	while (n--) {
		*h ^= *b++;
		*h *= 0x100000001b3ULL;
	}
}

/*
 * The path of the digest comparisons (runs that must decide exactly alike
 * or must not): 50 Mbit/s x 30 ms, 1 % random loss, a 1-BDP buffer, fq.
 */
static inline void bbr2_cfg_digest_path(struct linksim_cfg *cfg, u64 seed)
{
	linksim_cfg_default(cfg);
	cfg->rate_bps = 50000000;
	cfg->rtt_us = 30000;
	cfg->loss_ppm = 10000;
	cfg->fq = true;
	cfg->queue_pkts = linksim_bdp_pkts(cfg);
	cfg->seed = seed;
}

/* A one-flow path of the random-loss tests: bottleneck, base RTT, loss. */
struct lossy_path {
	u64 rate_bps;
	u32 rtt_us;
	u32 loss_ppm;	/* random loss, parts per million */
};

/*
 * Feeds a crafted rate sample to the socket's CC between two of the
 * simulator's ACKs, as tcp_ack() would (nothing for a CC without
 * cong_control, such as the broken-reno fixture).
 */
static inline void bbr2_feed_sample(struct sock *sk, const struct rate_sample *rs)
{
	const struct tcp_congestion_ops *ops = inet_csk(sk)->icsk_ca_ops;

	if (!ops->cong_control)
		return;
#ifdef SHIM_CONG_CONTROL_HAS_ACK_FLAG
	ops->cong_control(sk, tcp_sk(sk)->snd_una, 0, rs);
#else
	ops->cong_control(sk, rs);
#endif
}

#endif
