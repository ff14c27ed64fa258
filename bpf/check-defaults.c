// SPDX-License-Identifier: GPL-2.0
/*
 * check-defaults OBJECT: the BPF object's tunables as its ELF holds them
 * before anything writes them (what any loader, `bpftool struct_ops
 * register` too, puts in the kernel) must be the module's boot set
 * (bbr2_tunables_boot, src/bbr2_params.c, linked in): both sets, every
 * parameter, the pacing gains, the version and the explicit mask, and the
 * index of the active set must be 0.  Each variable is found by name in
 * the object's BTF, in whichever data section holds it.  Loads nothing,
 * needs no privilege.  Exit 0 if equal, 1 if not.
 */
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bbr2_params.h"

static struct bpf_object *obj;

/* The initial bytes of global variable name (size bytes), or NULL. */
static const void *initial(const char *name, size_t size)
{
	const struct btf *btf = bpf_object__btf(obj);
	int var = btf__find_by_name_kind(btf, name, BTF_KIND_VAR);
	unsigned int id, n = btf__type_cnt(btf);

	if (var < 0)
		return NULL;
	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_var_secinfo *v = btf_var_secinfos(t);
		unsigned int i;

		if (!btf_is_datasec(t))
			continue;
		for (i = 0; i < btf_vlen(t); i++, v++) {
			const char *sec = btf__name_by_offset(btf, t->name_off);
			struct bpf_map *map;
			const char *data;
			size_t len;

			if (v->type != (unsigned int)var)
				continue;
			map = bpf_object__find_map_by_name(obj, sec);
			data = map ? bpf_map__initial_value(map, &len) : NULL;
			if (!data || v->offset + size > len || v->size != size)
				return NULL;
			printf("%s: %zu bytes in %s\n", name, size, sec);
			return data + v->offset;
		}
	}
	return NULL;
}

/* Differences between one set of the object and the boot set. */
static unsigned int compare(unsigned int s, const struct bbr2_tunables *got)
{
	const struct bbr2_tunables *want = &bbr2_tunables_boot;
	unsigned int i, bad = 0;

	for (i = 0; i < BBR2_NR_PARAMS; i++)
		if (got->param[i] != want->param[i]) {
			printf("set %u: %s: object %u, module %u\n", s,
			       bbr2_param_table[i].name, got->param[i],
			       want->param[i]);
			bad++;
		}
	for (i = 0; i < BBR2_CYCLE_LEN; i++)
		if (got->pacing_gain[i] != want->pacing_gain[i]) {
			printf("set %u: pacing_gain[%u]: object %u, module %u\n",
			       s, i, got->pacing_gain[i], want->pacing_gain[i]);
			bad++;
		}
	if (got->version != want->version) {
		printf("set %u: version: object %u, module %u\n", s,
		       got->version, want->version);
		bad++;
	}
	if (got->explicit_mask != want->explicit_mask ||
	    got->reserved != want->reserved) {
		printf("set %u: explicit mask or reserved word differ\n", s);
		bad++;
	}
	return bad;
}

int main(int argc, char **argv)
{
	const struct bbr2_tunables *sets;
	const unsigned long long *idx;
	unsigned int bad = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: check-defaults BPF_OBJECT\n");
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "check-defaults: %s: cannot open\n", argv[1]);
		return 1;
	}
	sets = initial("bbr2_tunables_set", 2 * sizeof(*sets));
	idx = initial("bbr2_tunables_idx", sizeof(*idx));
	if (!sets || !idx) {
		fprintf(stderr, "check-defaults: %s: the tunables are not there as src/bbr2_params.h declares them\n",
			argv[1]);
		return 1;
	}
	bad += compare(0, &sets[0]);
	bad += compare(1, &sets[1]);
	if (*idx != 0) {
		printf("active set index: object %llu, expected 0\n", *idx);
		bad++;
	}
	printf("check-defaults: 2 sets of %u parameters, %u pacing gains, the version and the explicit mask, and the index: %u differ from src/bbr2_params.c's boot set\n",
	       BBR2_NR_PARAMS, BBR2_CYCLE_LEN, bad);
	bpf_object__close(obj);
	return bad ? 1 : 0;
}
