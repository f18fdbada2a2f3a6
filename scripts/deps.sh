#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install, idempotently, every Debian package the build and the tests need:
# host build tools, the MIPS cross compiler, Debian's 6.12 kernel source,
# QEMU's and U-Boot's build dependencies, and the mipsel architecture plus a deb-src
# entry (derived from this machine's own apt sources) so that the guest
# userspace and QEMU's source package can be fetched.
set -euo pipefail

HOST_PKGS=(
	build-essential bc bison flex cpio xz-utils rsync kmod file
	libssl-dev libelf-dev python3 perl ccache dpkg-dev
	gcc-mipsel-linux-gnu binutils-mipsel-linux-gnu libc6-dev-mipsel-cross
	linux-source-6.12 device-tree-compiler dt-schema clang
	meson ninja-build pkg-config libglib2.0-dev libpixman-1-dev
	libslirp-dev libfdt-dev
	gdb
	swig libpython3-dev python3-setuptools libgnutls28-dev uuid-dev
)

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

updated=
apt_update() {
	[ -n "$updated" ] && return 0
	$SUDO apt-get update -qq
	updated=1
}

# deb-src: one entry per deb entry of the machine's own deb822 sources.
src_list=/etc/apt/sources.list.d/ralink-fe-src.sources
if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources &&
   ! grep -qs '^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/*.list; then
	sed -n '/^Types:/,$p' /etc/apt/sources.list.d/debian.sources |
		sed 's/^Types:.*/Types: deb-src/' | $SUDO tee "$src_list" >/dev/null
	updated=
fi

# bookworm-backports (binary packages only), for guest tools newer than
# bookworm's (rootfs/packages-*.list names them as PKG/bookworm-backports),
# at the same mirror as the machine's own bookworm entry. Backports is
# NotAutomatic: nothing on the host is upgraded from it, and no source
# package is fetched from it.
bpo_list=/etc/apt/sources.list.d/ralink-fe-backports.sources
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	uri=
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		uri=$(awk '/^URIs:/ { u = $2 } /^Suites:.*bookworm( |$)/ { print u; exit }' \
			/etc/apt/sources.list.d/debian.sources)
	fi
	if [ -z "$uri" ]; then
		uri=$(awk '$1 == "deb" && $0 ~ / bookworm / { for (i = 2; i <= NF; i++)
			if ($i ~ /:\/\//) { print $i; exit } }' /etc/apt/sources.list 2>/dev/null)
	fi
	[ -n "$uri" ] || { echo "deps.sh: no bookworm entry in the apt sources" >&2; exit 1; }
	printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$uri" | $SUDO tee "$bpo_list" >/dev/null
	updated=
fi

if ! dpkg --print-foreign-architectures | grep -qx mipsel; then
	$SUDO dpkg --add-architecture mipsel
	updated=
fi

# Re-read the lists when an entry was added or mipsel lists are missing.
if ! ls /var/lib/apt/lists/*binary-mipsel_Packages* >/dev/null 2>&1 ||
   ! ls /var/lib/apt/lists/*_source_Sources* >/dev/null 2>&1 ||
   ! ls /var/lib/apt/lists/*bookworm-backports*binary-mipsel_Packages* >/dev/null 2>&1; then
	updated=
	apt_update
fi

missing=()
for p in "${HOST_PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	apt_update
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
		--no-install-recommends "${missing[@]}"
fi
