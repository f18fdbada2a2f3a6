#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mainline-dsa: the kernel's DSA selftests with mainline's 6.12 drivers
(mtk_eth_soc, mt7530-mdio, tag_mtk) on the emulated MT7621: the model is
right where drivers written for the silicon pass. See tests/lib/dsa.py.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import dsa  # noqa: E402
from tap import Suite  # noqa: E402

if __name__ == '__main__':
    dsa.run_all(Suite('mainline-dsa'), 'mainline', sys.argv[1:] or None)
