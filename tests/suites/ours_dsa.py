#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ours-dsa: the kernel's DSA selftests with our drivers (ralink_fe,
ralink_mt7530, and the kernel's tag_mtk) on the emulated MT7621, case for
case as mainline-dsa runs them with mainline's. See tests/lib/dsa.py.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import dsa  # noqa: E402
from tap import Suite  # noqa: E402

if __name__ == '__main__':
    dsa.run_all(Suite('ours-dsa'), 'ours', sys.argv[1:] or None)
