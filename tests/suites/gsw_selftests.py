#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""gsw-selftests: the kernel's DSA selftests with our drivers for the
MT7620 (ralink_fe over PDMA, ralink_mt7530's MMIO front end, the kernel's
tag_mt7620: the port in the DMA descriptors) on the emulated MT7620A
evaluation board, swp0-swp3 looped in pairs as on the MT7621
(tests/lib/dsa.py: the MT7620 bed). Mainline has no driver for the MT7620's
frame engine or its switch, so ours alone run them; a case the GSW cannot
do is a skip naming the hardware limit and what showed it (dsa.LIMITS, bed
'mt7620').
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import dsa  # noqa: E402
from tap import Suite  # noqa: E402

if __name__ == '__main__':
    dsa.run_all(Suite('gsw-selftests'), 'ours', sys.argv[1:] or None,
                bed=dsa.MT7620)
