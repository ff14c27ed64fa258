# SPDX-License-Identifier: GPL-2.0
#
# tcp_bbr2: BBRv3/BBRv2 TCP congestion control as an out-of-tree module.
#
#   make                     build tcp_bbr2.ko for the running kernel
#   make KVER=6.1.0-50-amd64 build against that kernel's headers
#   make test                every test: set up the test bed, quick tier
#                            (build, checkpatch, model tests), VM tier
#   make check               userspace model tests only (seconds, no root)
#   make selftest            behavioural tests on this host (root, a kernel
#                            that loads modules: a real DTN)
#   make vm-selftest         the same tests inside a QEMU VM
#   make demo                set up, build, boot the VM, load bbr2, run a
#                            short flow and show its ss -ti state
#   make install/uninstall   install the module without DKMS
#   make reproduce [QUICK=1] set up, then run every experiment of tools/jobs
#                            in the VM and write tables and plots
#                            (tools/bbr2-lab reproduce; tools/README.md)

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
PWD  := $(shell pwd)

# The VM targets default to the kernel pinned in selftests/vm/kernels.conf;
# pass KVER down only when the user chose one.
SELFTEST_KVER := $(if $(filter command line environment,$(origin KVER)),KVER=$(KVER))

.PHONY: all modules clean check test selftest vm-selftest demo deps \
	install uninstall reproduce

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(PWD) modules

clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean
	$(MAKE) -C selftests/model clean

check:
	$(MAKE) -C selftests/model check

test:
	selftests/run-all.sh

demo: deps
	$(MAKE) -C selftests demo $(SELFTEST_KVER)

reproduce: deps
	tools/bbr2-lab reproduce $(if $(filter 1,$(QUICK)),--quick) \
		$(if $(filter command line environment,$(origin KVER)),--kernel $(KVER))

selftest vm-selftest deps:
	$(MAKE) -C selftests $@ $(SELFTEST_KVER)

install: modules
	$(MAKE) -C $(KDIR) M=$(PWD) modules_install
	depmod -a $(KVER)

uninstall:
	rm -f /lib/modules/$(KVER)/updates/tcp_bbr2.ko \
	      /lib/modules/$(KVER)/extra/tcp_bbr2.ko
	depmod -a $(KVER)
