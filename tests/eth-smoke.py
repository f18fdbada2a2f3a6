# SPDX-License-Identifier: GPL-2.0
"""Boot, load ours-eth+mainline-dsa, run the commands given as arguments."""
import sys; sys.path.insert(0, 'tests/lib')
from board import Board
import dsa
cmds = sys.argv[1:]
with Board('gnubee-pc1', dtb=dsa.DTB, extra=dsa.loop_args()) as b:
    b.wait_ready()
    st, out = b.run('%s ours-eth+mainline-dsa swp0 swp1 swp2 swp3; echo rc=$?' % dsa.LOAD, timeout=120)
    print(out)
    for c in cmds:
        st, out = b.run(c, timeout=300)
        print('$', c); print(out)
