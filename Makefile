# SPDX-License-Identifier: GPL-2.0
#
# make run   - build what is missing and boot the emulated GnuBee GB-PC1
#              with our drivers, its WAN port on QEMU's user networking
#              (BOOT=tftp: through U-Boot in RAM, TFTP, a FIT image)
# make test  - build everything and run every test suite (TAP + tally);
#              SUITES="a b": only those
# make patches - our kernel work as a git format-patch series (build/patches)
# make bench - guest instructions per packet, mainline's drivers and ours
#              (build/bench-results.txt; QUICK=1: a few thousand frames a row;
#              CHECK=1: again with the host loaded, every row within 0.5 %)
#
# Sources (Debian's linux-source-6.12 and qemu 7.2 source packages) and
# caches (ccache, extracted trees, the built QEMU) live in $(CACHE).

CACHE ?= $(HOME)/.cache/ralink-fe
BOARD ?= gnubee-pc1
export CACHE

.PHONY: all deps qemu kernel kernel-mt76x8 kernel-rt305x kernel-rt3883 kernel-rt2880 \
	kernel-variants rootfs uboot fit \
	patches run test bench clean

all: qemu kernel rootfs

deps:
	@scripts/deps.sh

qemu: deps
	@scripts/build-qemu.sh

kernel: deps
	@scripts/build-kernel.sh main

# The MT7628 family's kernel (VoCore2, Omega2+).
kernel-mt76x8: deps
	@scripts/build-kernel.sh mt76x8

# The RT305x family's kernel (the RT3052 evaluation board).
kernel-rt305x: deps
	@scripts/build-kernel.sh rt305x

# The RT3883's kernel (its evaluation board).
kernel-rt3883: deps
	@scripts/build-kernel.sh rt3883

# The RT2880's kernel (its evaluation board).
kernel-rt2880: deps
	@scripts/build-kernel.sh rt2880

# Kernels only the tests boot: without the CM region-0 fix; the MT7628
# family's; the RT305x family's; the RT3883's; the RT2880's.
kernel-variants: kernel kernel-mt76x8 kernel-rt305x kernel-rt3883 \
	kernel-rt2880
	@scripts/build-kernel.sh no-cm-fix

# The test bed's initramfs, and busybox's alone for the 128 MiB boards.
rootfs: deps kernel
	@scripts/build-rootfs.sh
	@scripts/build-rootfs.sh base
	@scripts/build-rootfs.sh net

# U-Boot proper for the GnuBee, started from RAM (build/u-boot/u-boot).
uboot: deps
	@scripts/build-uboot.sh

# The FIT image U-Boot TFTP-boots: kernel, GnuBee DTBs, initramfs
# (build/tftp/gnubee.itb).
fit: kernel rootfs uboot
	@scripts/build-fit.sh

# Our kernel work as a checkpatch-clean git format-patch series against
# linux-source-6.12, in build/patches/.
patches: kernel
	@scripts/make-patches.sh

# make run [BOARD=gnubee-pc2|vocore2|omega2p|rt3052-eval|rt5350-eval|
#           rt3883-eval|rt2880-eval]
#          [BOOT=direct|tftp]
#          [DRIVERS=ours|mainline|none]
#          [LAN=<netdev>] [LAN_ADDR=a.b.c.d/n] [WAN=<netdev>]
#          [TELNET_PORT=2323] [HTTP_PORT=8080] [QEMU_ARGS="..."]
#          (README: "make run")
export BOOT DRIVERS LAN LAN_ADDR WAN TELNET_PORT HTTP_PORT QEMU_ARGS
run: qemu kernel rootfs $(if $(filter tftp,$(BOOT)),fit) \
	$(if $(filter vocore2 omega2p,$(BOARD)),kernel-mt76x8) \
	$(if $(filter rt3052-eval rt5350-eval,$(BOARD)),kernel-rt305x) \
	$(if $(filter rt3883-eval,$(BOARD)),kernel-rt3883) \
	$(if $(filter rt2880-eval,$(BOARD)),kernel-rt2880)
	@scripts/run.sh $(BOARD)

# make test [SUITES="board ours-dsa ..."]: every suite, or those.
test: qemu kernel kernel-variants rootfs uboot fit
	@tests/run-all.sh $(SUITES)

# QUICK=1 (here or in the environment): a few thousand frames a row.
# CHECK=1: run it twice, idle and with the host's CPUs busy, and compare.
# PROFILE=ROW: that row only, by kernel function.
bench: qemu kernel kernel-mt76x8 rootfs
	@QUICK=$(QUICK) CHECK=$(CHECK) PROFILE=$(PROFILE) bench/bench.py

clean:
	rm -rf build
