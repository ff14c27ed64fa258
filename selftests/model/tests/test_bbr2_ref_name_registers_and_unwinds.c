// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_bbr2 registers both of its names, "bbr2" and "bbr2_ref", when it
 * loads and unregisters both when it unloads; a load whose second
 * registration fails (the name is taken) fails whole: "bbr2" is not left
 * registered, nothing is leaked, and the module loads once the name is
 * free again.
 */
#include "bbr2_util.h"

static bool have(const char *name)
{
	return tcp_ca_find(name) != NULL;
}

/* Another module's congestion control that took the name first. */
static struct tcp_congestion_ops squatter = {
	.name		= "bbr2_ref",
	.ssthresh	= tcp_reno_ssthresh,
	.cong_avoid	= tcp_reno_cong_avoid,
	.undo_cwnd	= tcp_reno_undo_cwnd,
};

int main(void)
{
	long live;
	int err;

	tap_plan(6);
	shim_quiet = 1;

	tap_ok(shim_module_load("tcp_bbr2") == 0 && have("bbr2") &&
	       have("bbr2_ref"), "loading tcp_bbr2 registers bbr2 and bbr2_ref");
	shim_module_unload("tcp_bbr2");
	tap_ok(!have("bbr2") && !have("bbr2_ref"),
	       "unloading it unregisters both");

	live = shim_kmalloc_live;
	tap_ok(tcp_register_congestion_control(&squatter) == 0,
	       "another congestion control takes the name bbr2_ref");
	err = shim_module_load("tcp_bbr2");
	tap_ok(err != 0 && !have("bbr2"),
	       "then tcp_bbr2 fails to load (%d) and leaves no bbr2 registered",
	       err);
	tap_ok(shim_kmalloc_live == live, "nothing leaked (%ld allocations live, %ld before)",
	       shim_kmalloc_live, live);
	tcp_unregister_congestion_control(&squatter);
	tap_ok(shim_module_load("tcp_bbr2") == 0 && have("bbr2") &&
	       have("bbr2_ref"), "once the name is free it loads with both names");
	shim_module_unload("tcp_bbr2");
	return tap_done();
}
