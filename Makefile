# SPDX-License-Identifier: GPL-2.0
#
# tcp_bbr2: BBRv3/BBRv2 TCP congestion control as an out-of-tree module.
#
#   make                     build tcp_bbr2.ko for the running kernel
#   make KVER=6.1.0-50-amd64 build against that kernel's headers
#   make check               fast tier: userspace model tests (no root)
#   make selftest            behavioural tests on this host (root, real kernel)
#   make vm-selftest         the same tests inside a QEMU VM (no root needed
#                            for the kernel; see selftests/README)
#   make demo                boot the VM, load bbr2, run a short flow, show ss
#   make install/uninstall   install the module without DKMS

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
PWD  := $(shell pwd)

.PHONY: all modules clean check selftest vm-selftest demo deps install \
	uninstall

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(PWD) modules

clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean
	$(MAKE) -C selftests/model clean

check:
	$(MAKE) -C selftests/model check

selftest vm-selftest demo deps:
	$(MAKE) -C selftests $@ KVER=$(KVER)

install: modules
	$(MAKE) -C $(KDIR) M=$(PWD) modules_install
	depmod -a $(KVER)

uninstall:
	rm -f /lib/modules/$(KVER)/updates/tcp_bbr2.ko \
	      /lib/modules/$(KVER)/extra/tcp_bbr2.ko
	depmod -a $(KVER)
