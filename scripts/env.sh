# SPDX-License-Identifier: GPL-2.0
# Sourced by every script: where the sources, caches and outputs live.
# Caches sit outside the clone so that a fresh clone rebuilds in minutes.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${CACHE:-$HOME/.cache/ralink-fe}
BUILD=${BUILD:-$TOP/build}
JOBS=${JOBS:-$(($(nproc) + 1))}

# Debian's kernel source package and the version it carries.
KSRC_TAR=/usr/src/linux-source-6.12.tar.xz
kernel_pkg_version() {
	dpkg-query -W -f='${Version}' linux-source-6.12
}

CROSS_COMPILE=mipsel-linux-gnu-
export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}

mkdir -p "$CACHE" "$BUILD"

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# hash_of FILE...: a short content hash, for cache keys.
hash_of() {
	cat "$@" 2>/dev/null | sha256sum | cut -c1-16
}

# apply_patches [-R] DIR PATCH...: apply (-R: reverse) in order. Every
# file a patch touches is first replaced by a private copy, so that a tree
# made with cp -al never modifies the inode it shares with another tree.
apply_patches() {
	local dir p f dirn=--forward
	if [ "$1" = -R ]; then
		dirn=-R
		shift
	fi
	dir=$1
	shift
	for p in "$@"; do
		sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p' "$p" | while read -r f; do
			[ -e "$dir/$f" ] || continue
			cp -p "$dir/$f" "$dir/$f.unshare"
			mv -f "$dir/$f.unshare" "$dir/$f"
		done
		patch -d "$dir" -p1 "$dirn" --batch --no-backup-if-mismatch \
			--quiet <"$p" || die "patch $(basename "$p") does not apply"
	done
}
