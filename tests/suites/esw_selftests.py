#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""esw-selftests: the kernel's DSA selftests with our drivers for the
100 Mbit family (ralink_fe over PDMA, ralink_esw, the kernel's tag_mt7628)
on the emulated VoCore2 (MT7628AN), swp0-swp3 looped in pairs as on the
MT7621 (tests/lib/dsa.py: the MT7628 bed). Mainline has no driver for the
ESW, so ours alone run them; a case the ESW cannot do is a skip naming
the hardware limit and what showed it (dsa.LIMITS, bed 'mt7628').
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import dsa  # noqa: E402
from tap import Suite  # noqa: E402

if __name__ == '__main__':
    dsa.run_all(Suite('esw-selftests'), 'ours', sys.argv[1:] or None,
                bed=dsa.MT7628)
