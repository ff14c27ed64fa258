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
#   make vm-selftest         the same tests inside a QEMU VM (KVER=7: on
#                            Debian sid's newest 7.x, selftests/vm/sid-kernel.sh)
#   make demo                set up, build, boot the VM, load bbr2, run a
#                            short flow and show its ss -ti state
#   make install/uninstall   install the module without DKMS
#                            (INSTALL_MOD_PATH=DIR: under a staging root)
#   make matrix              build against 5.10, 6.1, 6.12 and 7.x headers
#   make deb                 Debian packages (debian/, dh-dkms): tcp-bbr2-dkms,
#                            bbr2-status, bbr2-bpf where it can be built
#   make rpm                 RPM packages (rpm/): tcp_bbr2-dkms, bbr2-status,
#                            bbr2-bpf; the akmod spec where kmodtool is
#   make bpf                 bbr2 as a BPF struct_ops congestion control
#                            (bpf/: bbr2_bpf.bpf.o and the bbr2-bpf loader)
#   make host-bench          bbr2_bpf, bbr and cubic on this host's kernel
#                            (6.10+, BTF; root) over tools/pathemu at the
#                            largest rate x RTT it carries, 3 iterations, the
#                            simulator beside it (selftests/hostbench/)
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
	install uninstall reproduce matrix deb rpm bpf host-bench

all: modules

# Probe the kernel's API once per build (include/compat-probe.sh), with the
# toolchain the user chose for the kernel build.
PROBE_VARS := $(foreach v,CC LLVM CROSS_COMPILE ARCH,\
	$(if $(filter command line,$(origin $(v))),$(v)="$($(v))"))

modules:
	compat=$$(sh $(PWD)/include/compat-probe.sh $(KDIR) $(PROBE_VARS)) && \
	$(MAKE) -C $(KDIR) M=$(PWD) BBR2_COMPAT="$$compat" modules

# Without the kernel's headers kbuild cannot clean; remove what it leaves.
clean:
	if [ -d $(KDIR) ]; then $(MAKE) -C $(KDIR) M=$(PWD) clean; else \
		rm -rf *.ko *.o *.mod *.mod.c .*.cmd src/*.o src/.*.cmd \
			modules.order Module.symvers .tmp_versions; fi
	if [ -d selftests/model ]; then $(MAKE) -C selftests/model clean; fi
	if [ -d bpf ]; then $(MAKE) -C bpf clean; fi
	rm -f tcp-bbr2*_* bbr2-bpf_*.deb bbr2-status_*.deb \
		tcp_bbr2-*.rpm bbr2-bpf-*.rpm bbr2-status-*.rpm

check:
	$(MAKE) -C selftests/model check

bpf:
	$(MAKE) -C bpf

test:
	selftests/runner/run-all.sh

# ITER=N, OUT=DIR (raw data there, the results page regenerated), CCS=...
host-bench: bpf
	PROFILE=full HOSTBENCH_COMMAND="make host-bench" \
		selftests/hostbench/host-bench.sh

demo: deps
	$(MAKE) -C selftests demo $(SELFTEST_KVER)

reproduce: deps
	tools/bbr2-lab reproduce $(if $(filter 1,$(QUICK)),--quick) \
		$(if $(filter command line environment,$(origin KVER)),--kernel $(KVER))

selftest vm-selftest deps:
	$(MAKE) -C selftests $@ $(SELFTEST_KVER)

# INSTALL_MOD_PATH=DIR installs under DIR (a staging root), as for the kernel.
DEPMOD := depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) -a $(KVER)

install: modules
	$(MAKE) -C $(KDIR) M=$(PWD) modules_install
	$(DEPMOD)

uninstall:
	rm -f $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/updates/tcp_bbr2.ko* \
	      $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/extra/tcp_bbr2.ko*
	$(DEPMOD)

# Build against one kernel of every supported series (selftests/build/build-matrix.sh).
matrix:
	selftests/build/build-matrix.sh

# The Debian packages (dpkg-buildpackage in a copy of the tree), here.
deb:
	tools/build-deb.sh .

# The RPM packages (rpmbuild), here.
rpm:
	tools/build-rpm.sh .
