#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""patches: our kernel work as the patch series `make patches` writes.

- scripts/make-patches.sh writes build/patches/ and passes only if every
  patch is checkpatch --strict clean (no error, warning or check);
- the series applies, in order, to a clean linux-source-6.12 tree (a
  hard-linked copy of the main build's tree with kernel/patches reversed,
  each file the patches touch unshared first by scripts/env.sh's
  apply_patches);
- every DT binding document the series or kernel/patches add or change
  is valid YAML and a valid schema by dt-doc-validate (Debian's
  dt-schema, 2022.08 in bookworm; broken once: a description with a
  colon in it, which YAML reads as a key). That version cannot process
  6.12's whole bindings tree (dt-mk-schema fails on its core schemas), so
  the DTs themselves are not validated against them;
- that tree builds our drivers in tree (the main build's .config plus our
  Kconfig symbols and COMPILE_TEST, W=1): the symbols exist in the tree's
  Kconfig and stick, and the directories the series adds build without a
  warning.
"""

import glob
import os
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from tap import Suite  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
BUILD = os.environ.get('BUILD', os.path.join(TOP, 'build'))
CACHE = os.environ.get('CACHE', os.path.expanduser('~/.cache/ralink-fe'))
MAIN_SRC = os.path.join(CACHE, 'kernel', 'main', 'src')
MAIN_OBJ = os.path.join(CACHE, 'kernel', 'main', 'obj')
WORK = os.path.join(CACHE, 'kernel', 'series')


def series_dirs():
    """The code directories the series adds to (kernel/series/*.txt,
    Paths: a directory, or a file in a directory with a Kconfig)."""
    dirs = []
    for txt in sorted(glob.glob(os.path.join(TOP, 'kernel', 'series',
                                             '*.txt'))):
        for ln in open(txt):
            if not ln.startswith('Paths: '):
                continue
            for p in ln.split()[1:]:
                p = p.rstrip('/')
                if not os.path.isdir(os.path.join(TOP, 'kernel', p)):
                    p = os.path.dirname(p)
                if (os.path.exists(os.path.join(TOP, 'kernel', p, 'Kconfig'))
                        and p + '/' not in dirs):
                    dirs.append(p + '/')
    return dirs


def symbols(dirs):
    """Each config symbol of @dirs' Kconfig files: bool y, tristate m."""
    syms, name = [], None
    for d in dirs:
        for ln in open(os.path.join(TOP, 'kernel', d, 'Kconfig')):
            w = ln.split()
            if w[:1] == ['config']:
                name = w[1]
            elif name and w[:1] in (['bool'], ['tristate']):
                syms.append('CONFIG_%s=%s' % (name, 'y' if w[0] == 'bool'
                                              else 'm'))
                name = None
    return syms


def sh(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, shell=True, text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode:
        raise RuntimeError('%s: exit %d\n%s' % (cmd, p.returncode,
                                                p.stdout[-3000:]))
    return p.stdout


def main():
    suite = Suite('patches')
    try:
        sh(os.path.join(TOP, 'scripts', 'make-patches.sh'))
    except RuntimeError as e:
        suite.fail('make patches: every patch checkpatch --strict clean', e)
        return 1
    series = sorted(glob.glob(os.path.join(BUILD, 'patches', '*.patch')))
    suite.ok('make patches: %d patches, every one checkpatch --strict clean'
             % len(series))

    src = os.path.join(WORK, 'src')
    obj = os.path.join(WORK, 'obj')

    def apply():
        if os.path.exists(src):
            shutil.rmtree(src)
        os.makedirs(WORK, exist_ok=True)
        sh('cp -al %s %s' % (MAIN_SRC, src))
        fixes = sorted(glob.glob(os.path.join(TOP, 'kernel', 'patches',
                                              '*.patch')))
        # scripts/env.sh's apply_patches unshares what it patches.
        env = '. %s' % os.path.join(TOP, 'scripts', 'env.sh')
        if fixes:
            sh('bash -c %s' % shlex.quote('%s && apply_patches -R %s %s' % (
                env, src, ' '.join(reversed(fixes)))))
        sh('bash -c %s' % shlex.quote('%s && apply_patches %s %s' % (
            env, src, ' '.join(series))))
        return '%d patches applied in order' % len(series)

    if not suite.check('the series applies to a clean linux-source-6.12 '
                       'tree', apply):
        return 1

    def bindings():
        docs = set()
        for p in series + sorted(glob.glob(os.path.join(
                TOP, 'kernel', 'patches', '*.patch'))):
            for ln in open(p):
                if (ln.startswith('+++ b/Documentation/devicetree/bindings/')
                        and ln.rstrip().endswith('.yaml')):
                    docs.add(ln.split(None, 1)[1].strip()[2:])
        if not docs:
            raise RuntimeError('no binding document in the series')
        root = os.path.join(src, 'Documentation', 'devicetree', 'bindings')
        bad = []
        for d in sorted(docs):
            p = subprocess.run(['dt-doc-validate', '-u', root,
                                os.path.join(src, d)], text=True,
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
            if p.returncode or p.stdout.strip():
                bad.append('%s: %s' % (d, p.stdout.strip()))
        if bad:
            raise RuntimeError('\n'.join(bad))
        return 'valid: %s' % ' '.join(sorted(docs))

    suite.check('the binding documents the patches add or change pass '
                'dt-doc-validate', bindings)

    dirs = series_dirs()
    syms = symbols(dirs)

    def build():
        os.makedirs(obj, exist_ok=True)
        shutil.copy(os.path.join(MAIN_OBJ, '.config'),
                    os.path.join(obj, '.config'))
        # COMPILE_TEST: the main build is the MT7621's, and the ESW driver
        # is for the MT7628's and the RT5350's families
        with open(os.path.join(obj, '.config'), 'a') as f:
            f.write('\n'.join(['CONFIG_COMPILE_TEST=y'] + syms) + '\n')
        make = ('make -C %s O=%s ARCH=mips CROSS_COMPILE=mipsel-linux-gnu- '
                '"CC=ccache mipsel-linux-gnu-gcc" HOSTCC="ccache gcc" -j%d'
                % (src, obj, (os.cpu_count() or 1) + 1))
        sh(make + ' olddefconfig')
        config = open(os.path.join(obj, '.config')).read().splitlines()
        lost = [s for s in syms if s not in config]
        if lost:
            raise RuntimeError('did not stick: %s' % ' '.join(lost))
        sh(make + ' modules_prepare')
        out = sh(make + ' W=1 ' + ' '.join(dirs))
        warnings = [ln for ln in out.splitlines() if 'warning:' in ln]
        if warnings:
            raise RuntimeError('\n'.join(warnings))
        built = [ln.split()[-1] for ln in out.splitlines()
                 if ln.strip().startswith(('CC', 'LD'))]
        if not built:
            raise RuntimeError('nothing was built:\n' + out[-2000:])
        return 'built in tree: %s' % ' '.join(built)

    suite.check('the patched tree builds %s in tree (%s, W=1) without a '
                'warning' % (' '.join(dirs), ' '.join(syms)), build)
    return 1 if suite.failed else 0


if __name__ == '__main__':
    sys.exit(main())
