/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_BTF_IDS_H
#define _SHIM_LINUX_BTF_IDS_H
#include <linux/btf.h>
#define BTF_SET8_START(name)	static struct btf_id_set8 name __maybe_unused = { 0, 0 };
#define BTF_SET8_END(name)
#define BTF_KFUNCS_START(name)	BTF_SET8_START(name)
#define BTF_KFUNCS_END(name)
#define BTF_ID_FLAGS(prefix, name, ...)
#define BTF_ID(prefix, name)
#endif
