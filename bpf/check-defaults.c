// SPDX-License-Identifier: GPL-2.0
/*
 * check-defaults OBJECT: the BPF object's parameter storage as its ELF
 * holds it before anything writes it (what any loader, `bpftool struct_ops
 * register` too, puts in the kernel) must equal the module's initial
 * table (src/bbr2_params.c, linked in): every value, default and range,
 * the version and the PROBE_BW pacing gains.  Each variable is found by
 * name in the object's BTF, in whichever data section holds it.  Loads
 * nothing, needs no privilege.  Exit 0 if equal, 1 if not.
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

int main(int argc, char **argv)
{
	const struct bbr2_param *table;
	const u32 *version, *gains;
	unsigned int i, bad = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: check-defaults BPF_OBJECT\n");
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "check-defaults: %s: cannot open\n", argv[1]);
		return 1;
	}
	table = initial("bbr2_param_table", sizeof(bbr2_param_table));
	version = initial("bbr2_version", sizeof(bbr2_version));
	gains = initial("bbr2_pacing_gain_cycle", sizeof(bbr2_pacing_gain_cycle));
	if (!table || !version || !gains) {
		fprintf(stderr, "check-defaults: %s: the parameter storage is not there as src/bbr2_params.h declares it\n",
			argv[1]);
		return 1;
	}
	for (i = 0; i < BBR2_NR_PARAMS; i++) {
		const struct bbr2_param *want = &bbr2_param_table[i];
		const struct bbr2_param *got = &table[i];

		if (got->value != want->value ||
		    got->v3_default != want->v3_default ||
		    got->v2_default != want->v2_default ||
		    got->min != want->min || got->max != want->max) {
			printf("%s: object %u (v3 %u, v2 %u, %u..%u), module %u (v3 %u, v2 %u, %u..%u)\n",
			       want->name, got->value, got->v3_default,
			       got->v2_default, got->min, got->max, want->value,
			       want->v3_default, want->v2_default, want->min,
			       want->max);
			bad++;
		}
	}
	if (*version != bbr2_version) {
		printf("version: object %u, module %u\n", *version, bbr2_version);
		bad++;
	}
	for (i = 0; i < BBR2_CYCLE_LEN; i++)
		if (gains[i] != bbr2_pacing_gain_cycle[i]) {
			printf("pacing_gain[%u]: object %u, module %u\n", i,
			       gains[i], bbr2_pacing_gain_cycle[i]);
			bad++;
		}
	printf("check-defaults: %u parameters, the version and %u pacing gains: %u differ from src/bbr2_params.c\n",
	       BBR2_NR_PARAMS, BBR2_CYCLE_LEN, bad);
	bpf_object__close(obj);
	return bad ? 1 : 0;
}
