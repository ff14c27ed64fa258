// SPDX-License-Identifier: GPL-2.0
/*
 * The congestion-control registry and Reno, for the userspace shim: what
 * net/ipv4/tcp_cong.c provides to modules, re-implemented small.
 */
#include <string.h>
#include <linux/module.h>
#include <net/tcp.h>

#define SHIM_MAX_CA 32

static struct tcp_congestion_ops *shim_ca[SHIM_MAX_CA];

static u32 shim_ca_key(const char *name)
{
	u32 h = 2166136261u;	/* FNV-1a; the kernel uses jhash */

	while (*name)
		h = (h ^ (u8)*name++) * 16777619u;
	return h;
}

struct tcp_congestion_ops *tcp_ca_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < SHIM_MAX_CA; i++)
		if (shim_ca[i] && !strcmp(shim_ca[i]->name, name))
			return shim_ca[i];
	return NULL;
}

int tcp_register_congestion_control(struct tcp_congestion_ops *ca)
{
	unsigned int i;

	/* all algorithms must implement these */
	if (!ca->ssthresh || !ca->undo_cwnd ||
	    !(ca->cong_avoid || ca->cong_control)) {
		pr_err("%s does not implement required ops\n", ca->name);
		return -EINVAL;
	}
	if (!ca->name[0] || strnlen(ca->name, TCP_CA_NAME_MAX) == TCP_CA_NAME_MAX) {
		pr_err("congestion control name is empty or not terminated\n");
		return -EINVAL;
	}
	ca->key = shim_ca_key(ca->name);
	if (tcp_ca_find(ca->name)) {
		pr_notice("%s already registered\n", ca->name);
		return -EEXIST;
	}
	for (i = 0; i < SHIM_MAX_CA; i++) {
		if (!shim_ca[i]) {
			shim_ca[i] = ca;
			pr_debug("%s registered\n", ca->name);
			return 0;
		}
	}
	return -ENOSPC;
}

void tcp_unregister_congestion_control(struct tcp_congestion_ops *ca)
{
	unsigned int i;

	for (i = 0; i < SHIM_MAX_CA; i++)
		if (shim_ca[i] == ca)
			shim_ca[i] = NULL;
}

void tcp_get_available_congestion_control(char *buf, size_t len)
{
	unsigned int i;
	size_t off = 0;

	buf[0] = 0;
	for (i = 0; i < SHIM_MAX_CA; i++)
		if (shim_ca[i])
			off += snprintf(buf + off, off < len ? len - off : 0, "%s%s",
					off ? " " : "", shim_ca[i]->name);
}

void tcp_set_ca_state(struct sock *sk, const u8 ca_state)
{
	struct inet_connection_sock *icsk = inet_csk(sk);

	if (icsk->icsk_ca_ops->set_state)
		icsk->icsk_ca_ops->set_state(sk, ca_state);
	icsk->icsk_ca_state = ca_state;
}

/* Slow start: grow cwnd by the packets acked, up to ssthresh; return the
 * part of "acked" left over for congestion avoidance. */
u32 tcp_slow_start(struct tcp_sock *tp, u32 acked)
{
	u32 cwnd = min(tcp_snd_cwnd(tp) + acked, tp->snd_ssthresh);

	acked -= cwnd - tcp_snd_cwnd(tp);
	tcp_snd_cwnd_set(tp, min(cwnd, tp->snd_cwnd_clamp));
	return acked;
}

/* Additive increase: one packet per w packets acked. */
void tcp_cong_avoid_ai(struct tcp_sock *tp, u32 w, u32 acked)
{
	if (tp->snd_cwnd_cnt >= w) {
		tp->snd_cwnd_cnt = 0;
		tcp_snd_cwnd_set(tp, tcp_snd_cwnd(tp) + 1);
	}
	tp->snd_cwnd_cnt += acked;
	if (tp->snd_cwnd_cnt >= w) {
		u32 delta = tp->snd_cwnd_cnt / w;

		tp->snd_cwnd_cnt -= delta * w;
		tcp_snd_cwnd_set(tp, tcp_snd_cwnd(tp) + delta);
	}
	tcp_snd_cwnd_set(tp, min(tcp_snd_cwnd(tp), tp->snd_cwnd_clamp));
}

void tcp_reno_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	(void)ack;
	if (!tcp_is_cwnd_limited(sk))
		return;
	if (tcp_in_slow_start(tp)) {
		acked = tcp_slow_start(tp, acked);
		if (!acked)
			return;
	}
	tcp_cong_avoid_ai(tp, tcp_snd_cwnd(tp), acked);
}

u32 tcp_reno_ssthresh(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	return max(tcp_snd_cwnd(tp) >> 1U, 2U);
}

u32 tcp_reno_undo_cwnd(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	return max(tcp_snd_cwnd(tp), tp->prior_cwnd);
}

void __tcp_send_ack(struct sock *sk, u32 rcv_nxt)
{
	(void)sk;
	(void)rcv_nxt;
}

void tcp_send_ack(struct sock *sk)
{
	(void)sk;
}

struct tcp_congestion_ops tcp_reno = {
	.flags		= TCP_CONG_NON_RESTRICTED,
	.name		= "reno",
	.owner		= THIS_MODULE,
	.ssthresh	= tcp_reno_ssthresh,
	.cong_avoid	= tcp_reno_cong_avoid,
	.undo_cwnd	= tcp_reno_undo_cwnd,
};

/* Reno is built into the kernel: registered before any module loads. */
static void __attribute__((constructor)) shim_register_reno(void)
{
	tcp_register_congestion_control(&tcp_reno);
}
