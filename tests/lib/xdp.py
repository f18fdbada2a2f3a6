# SPDX-License-Identifier: GPL-2.0
"""The XDP test programs (tests/xdp/xdp_test.c), built here with clang.

Sections: xdp_drop, xdp_tx, xdp_redirect (on a DSA conduit with the MTK
tag), xdp_tx_eth, xdp_redirect_eth (on plain Ethernet), tc_csum (see the
source). Used by the ours-eth and fe-eth suites and by make bench.
"""

import os
import subprocess

from board import BUILD, TOP

SRC = os.path.join(TOP, 'tests', 'xdp', 'xdp_test.c')


def build_xdp(out=os.path.join(BUILD, 'xdp')):
    """Build the programs into @out/xdp_test.o; return its path."""
    os.makedirs(out, exist_ok=True)
    obj = os.path.join(out, 'xdp_test.o')
    subprocess.run(['clang', '-O2', '-g0', '-Wall', '-Werror', '-target',
                    'bpfel', '-c', SRC, '-o', obj], check=True)
    return obj
