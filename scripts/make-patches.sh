#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-patches.sh: our kernel work as a `git format-patch` series against
# Debian's linux-source-6.12, in build/patches/:
#
#   1. kernel/patches/*.patch (fixes to existing kernel files), as they are;
#   2. one patch per kernel/series/*.txt, which names the directories of
#      kernel/ it adds, the hook it needs in the tree's Kconfig and
#      Makefile, and the F: lines it adds to our MAINTAINERS entry (the
#      entry's head is kernel/series/maintainers-entry; the first patch inserts
#      it in alphabetical order, as checkpatch wants new files covered in
#      the patch that adds them).
#
# The series is made in a small git tree holding only the files it
# touches, taken pristine from the source package: the patches are the
# same as from a full tree. Each patch is then checked with the tree's
# scripts/checkpatch.pl --strict; any error, warning or check fails.
# tests/suites/patches.py applies the result to a clean tree and builds it.
set -euo pipefail
. "$(dirname "$0")/env.sh"

OUT=$BUILD/patches
WORK=$BUILD/patches-tree
KSRC=$CACHE/kernel/main/src
CHECKPATCH=$KSRC/scripts/checkpatch.pl
[ -x "$CHECKPATCH" ] || die "no $CHECKPATCH (make kernel first)"

# The series' author and Signed-off-by: the project's address (the
# MAINTAINERS entry), or whoever submits it: PATCH_AUTHOR="Name <addr>"
# (the Developer's Certificate of Origin wants a person; the fixes in
# kernel/patches then get that person's Signed-off-by too, git am -s).
NAME="Seed a6eb6a1b maintainers"
EMAIL="maintainers@users.noreply.a-seed-a6eb6a1b.example"
AM_SIGNOFF=
if [ -n "${PATCH_AUTHOR:-}" ]; then
	[[ $PATCH_AUTHOR =~ ^([^<]*[^<[:space:]])[[:space:]]*\<([^>]+@[^>]+)\>$ ]] ||
		die "PATCH_AUTHOR: want \"Name <address>\", got \"$PATCH_AUTHOR\""
	NAME=${BASH_REMATCH[1]} EMAIL=${BASH_REMATCH[2]} AM_SIGNOFF=--signoff
fi
export GIT_AUTHOR_NAME=$NAME GIT_AUTHOR_EMAIL=$EMAIL
export GIT_COMMITTER_NAME=$NAME GIT_COMMITTER_EMAIL=$EMAIL
export GIT_AUTHOR_DATE="2026-12-04T08:00:00Z" GIT_COMMITTER_DATE="2026-12-04T08:00:00Z"

# Files of the pristine tree that the series may touch.
shopt -s nullglob
FIXES=("$TOP"/kernel/patches/*.patch)
SERIES=("$TOP"/kernel/series/*.txt)
shopt -u nullglob
files=(MAINTAINERS drivers/net/ethernet/Kconfig drivers/net/ethernet/Makefile
	drivers/net/dsa/Kconfig drivers/net/dsa/Makefile)
# (not the files a patch creates: "--- /dev/null" before their "+++")
for p in "${FIXES[@]}"; do
	while read -r f; do files+=("$f"); done < <(awk '
		/^--- / { created = ($2 == "/dev/null") }
		/^\+\+\+ b\// && !created { sub(/^b\//, "", $2); print $2 }' "$p")
done

PRISTINE=$CACHE/kernel/pristine
key="pkg=$(kernel_pkg_version) files=$(printf '%s\n' "${files[@]}" | sort -u | sha256sum | cut -c1-16)"
if [ "$(cat "$PRISTINE.stamp" 2>/dev/null)" != "$key" ]; then
	log "patches: extracting the files the series touches from $(basename "$KSRC_TAR")"
	rm -rf "$PRISTINE" "$PRISTINE.stamp"
	mkdir -p "$PRISTINE"
	top=$(basename "$KSRC_TAR" .tar.xz)	# the package's top directory
	tar -C "$PRISTINE" --strip-components=1 -xf "$KSRC_TAR" \
		$(printf "$top/%s " $(printf '%s\n' "${files[@]}" | sort -u))
	echo "$key" >"$PRISTINE.stamp"
fi

rm -rf "$WORK" "$OUT"
mkdir -p "$WORK" "$OUT"
cp -a "$PRISTINE/." "$WORK/"
cd "$WORK"
git init -q
git add -A
git commit -qm "linux-source-6.12 $(kernel_pkg_version) (the files the series touches)"
base=$(git rev-parse HEAD)

for p in "${FIXES[@]}"; do
	git am -q $AM_SIGNOFF "$p" || die "$(basename "$p") does not apply"
done

# hook KIND: the line that makes the tree build the new directory.
hook() {
	case $1 in
	ethernet)
		# After the last "source" line whose directory sorts before ralink.
		awk '{ print } /^source "drivers\/net\/ethernet\/qualcomm\/Kconfig"$/ {
			print "source \"drivers/net/ethernet/ralink/Kconfig\"" }' \
			drivers/net/ethernet/Kconfig >k.tmp && mv k.tmp drivers/net/ethernet/Kconfig
		awk '{ print } /^obj-\$\(CONFIG_NET_VENDOR_QUALCOMM\) \+= qualcomm\/$/ {
			print "obj-$(CONFIG_NET_VENDOR_RALINK) += ralink/" }' \
			drivers/net/ethernet/Makefile >m.tmp && mv m.tmp drivers/net/ethernet/Makefile
		;;
	dsa)
		awk '{ print } /^source "drivers\/net\/dsa\/qca\/Kconfig"$/ {
			print ""; print "source \"drivers/net/dsa/ralink/Kconfig\"" }' \
			drivers/net/dsa/Kconfig >k.tmp && mv k.tmp drivers/net/dsa/Kconfig
		awk '{ print } /^obj-y\t+\+= qca\/$/ { print "obj-y\t\t\t\t+= ralink/" }' \
			drivers/net/dsa/Makefile >m.tmp && mv m.tmp drivers/net/dsa/Makefile
		;;
	none) ;;
	*) die "unknown hook $1" ;;
	esac
}

# maintainers F...: add F: lines to our entry (created on first use).
maintainers() {
	python3 - "$TOP/kernel/series/maintainers-entry" MAINTAINERS "$@" <<'PY'
import re, sys
head = open(sys.argv[1]).read().strip('\n').split('\n')
title = head[0]
lines = open(sys.argv[2]).read().split('\n')
if title not in lines:
    start = lines.index('Maintainers List') if 'Maintainers List' in lines else 0
    for i in range(start, len(lines) - 1):
        if (re.match(r'^[0-9A-Z][^a-z]*$', lines[i]) and lines[i - 1] == ''
                and re.match(r'^[A-Z]:\t', lines[i + 1]) and lines[i] > title):
            lines[i:i] = head + ['']
            break
    else:
        sys.exit('MAINTAINERS: no place for the entry')
i = lines.index(title) + 1
while lines[i]:
    i += 1
entry = lines[lines.index(title) + 1:i]
entry += ['F:\t' + f for f in sys.argv[3:]]
# checkpatch's order: M, R, L, S, ..., F sorted, then the rest as given.
fs = sorted(e for e in entry if e.startswith('F:'))
rest = [e for e in entry if not e.startswith('F:')]
lines[lines.index(title) + 1:i] = rest + fs
open(sys.argv[2], 'w').write('\n'.join(lines))
PY
}

# later_paths N: the Paths of the series files after the N-th (0-based).
later_paths() {
	local i
	for ((i = $1 + 1; i < ${#SERIES[@]}; i++)); do
		sed -n 's/^Paths: //p' "${SERIES[$i]}" | head -n 1
	done
}

# prune DIR...: in each directory of ours, drop the Makefile's objects
# whose sources are not in the tree (yet: a later patch adds them) and
# their Kconfig symbols' blocks, so that each patch builds on its own.
prune() {
	python3 - "$@" <<'PY'
import os, re, sys
for d in sys.argv[1:]:
    mk, kc = os.path.join(d, 'Makefile'), os.path.join(d, 'Kconfig')
    if not (os.path.exists(mk) and os.path.exists(kc)):
        continue
    # Logical lines (a backslash continues one), each with its physical
    # lines, so that a pruned assignment goes whole and a kept one keeps
    # its layout
    logical, cur = [], []
    for ln in open(mk).read().split('\n'):
        cur.append(ln)
        if not ln.endswith('\\'):
            logical.append(cur)
            cur = []
    if cur:
        logical.append(cur)
    lines = [' '.join(p.rstrip('\\').strip() if i else p.rstrip('\\').rstrip()
                      for i, p in enumerate(ph)) for ph in logical]
    objs = {}
    for ln in lines:
        m = re.match(r'^obj-\$\((CONFIG_\w+)\)\s*\+=\s*(\w+)\.o$', ln)
        if m:
            objs[m.group(2)] = m.group(1)
    gone = set()
    for name, sym in objs.items():
        parts = [name]
        for ln in lines:
            m = re.match(r'^%s-y\s*:=\s*(.*)$' % name, ln)
            if m:
                parts = [o[:-2] for o in m.group(1).split()]
        if not all(os.path.exists(os.path.join(d, o + '.c')) for o in parts):
            gone.add((name, sym))
    if not gone:
        continue
    names = {n for n, _ in gone}
    syms = {s[len('CONFIG_'):] for _, s in gone}
    keep = [pl for ln, ph in zip(lines, logical) for pl in ph
            if not any(re.match(r'^obj-\$\(CONFIG_%s\)' % s, ln) for s in syms)
            and not any(re.match(r'^%s-y\s*:=' % n, ln) for n in names)]
    open(mk, 'w').write('\n'.join(keep))
    out, skip = [], False
    for ln in open(kc).read().split('\n'):
        m = re.match(r'^(menu)?config (\w+)$', ln)
        if m:
            skip = m.group(2) in syms
        elif re.match(r'^(endmenu|endif|if |menu |source )', ln):
            skip = False
        if not skip:
            out.append(ln)
    text = re.sub(r'\n{3,}', '\n\n', '\n'.join(out))
    open(kc, 'w').write(text.rstrip('\n') + '\n')
PY
}

# A series file: "Subject: ...", "Paths: path...", "Hook: ethernet|dsa|none",
# optionally "Maintainers-F: path...", an empty line, then the commit
# message body. A directory in Paths comes without the files that a later
# series file names in its own Paths (and its Makefile and Kconfig without
# what they build).
n_series=0
for s in "${SERIES[@]}"; do
	subject=$(sed -n 's/^Subject: //p' "$s" | head -n 1)
	paths=$(sed -n 's/^Paths: //p' "$s" | head -n 1)
	kind=$(sed -n 's/^Hook: //p' "$s" | head -n 1)
	[ -n "$subject" ] && [ -n "$paths" ] && [ -n "$kind" ] ||
		die "$s: needs Subject:, Paths: and Hook: lines"
	later=$(later_paths "$n_series")
	n_series=$((n_series + 1))
	for d in $paths; do
		[ -e "$TOP/kernel/$d" ] || die "$s: no kernel/$d"
		mkdir -p "$(dirname "$d")"
		cp -a "$TOP/kernel/$d" "$(dirname "$d")/"
		[ -d "$d" ] || continue
		for l in $later; do
			case $l in
			*/Kconfig | */Makefile) ;;	# pruned below instead
			"$d"/*) rm -rf "$l" ;;
			esac
		done
		prune "$d"
	done
	hook "$kind"
	mf=$(sed -n 's/^Maintainers-F: //p' "$s")
	# shellcheck disable=SC2086
	[ -z "$mf" ] || maintainers $mf
	git add -A
	{
		echo "$subject"
		echo
		sed '1,/^$/d' "$s"
		echo
		echo "Signed-off-by: $NAME <$EMAIL>"
	} >msg.tmp
	git commit -q -F msg.tmp
	rm -f msg.tmp
done

git format-patch -q --no-signature -o "$OUT" "$base"
n=$(ls "$OUT" | wc -l)
bad=0
camel_dir=$(mktemp -d)
for p in "$OUT"/*.patch; do
	# UNKNOWN_COMMIT_ID: checkpatch looks a Fixes: id up with git, and the
	# tree here has no history (Debian's linux-source); NOTES.md says
	# where the bridge fix's id comes from. CAMELCASE: --no-tree (the
	# series' bindings are not in the tree, which checkpatch would look
	# compatibles up in) leaves checkpatch without the kernel's own
	# CamelCase names (ethtool's IEEE 802.3 counters, FramesReceivedOK):
	# checked apart below, each must be the kernel's.
	if ! "$CHECKPATCH" --strict --no-tree \
		--ignore UNKNOWN_COMMIT_ID,CAMELCASE -q \
		"$p" >"$p.checkpatch" 2>&1; then
		log "checkpatch: $(basename "$p"):"
		cat "$p.checkpatch" >&2
		bad=$((bad + 1))
	fi
	# (In a scratch directory: checkpatch caches the names it seeds in
	# the current one, from a git tree there if any.)
	(cd "$camel_dir" && GIT_DIR=/nonexistent "$CHECKPATCH" --strict \
		--no-tree --types CAMELCASE -q "$p" 2>&1) |
		sed -n 's/^CHECK: Avoid CamelCase: <\(.*\)>$/\1/p' | sort -u \
		>"$p.camel" || true
	while read -r id; do
		if ! grep -rqw -- "$id" "$KSRC/include"; then
			log "checkpatch: $(basename "$p"): CamelCase <$id> is not the kernel's"
			bad=$((bad + 1))
		fi
	done <"$p.camel"
	rm -f "$p.checkpatch" "$p.camel"
done
rm -rf "$camel_dir"
[ "$bad" -eq 0 ] || die "$bad of $n patches not checkpatch-clean"
log "patches: $n patches, checkpatch --strict clean -> ${OUT#"$TOP"/}"
