# SPDX-License-Identifier: GPL-2.0
# QEMU state for a hung board: BOARD_GDB=file BOARD_GDB_SCRIPT=tests/lib/qemu-state.gdb
# (tests/lib/board.py). Timer lists of the main loop, icount warp state,
# the vCPUs and the first 16550, for QEMU 7.2 built with debug info.
set pagination off
p timers_state
p icount_sleep
p use_icount
python
import gdb
names = ['REALTIME','VIRTUAL','HOST','VIRTUAL_RT']
tlg = gdb.parse_and_eval('main_loop_tlg')
for i in range(4):
    tl = tlg['tl'][i]
    t = tl['active_timers']
    print('clock', names[i], 'enabled', tl['clock']['enabled'])
    n = 0
    while t and n < 50:
        print('   expire', int(t['expire_time']), 'cb', t['cb'], 'attr', int(t['attributes']))
        t = t['next']; n += 1
cpu = gdb.parse_and_eval('cpus')['tqh_first']
while cpu:
    print('cpu', int(cpu['cpu_index']), 'halted', int(cpu['halted']), 'stop', int(cpu['stop']), 'stopped', int(cpu['stopped']), 'intreq', hex(int(cpu['interrupt_request'])), 'exit_req', int(cpu['exit_request']), 'work', cpu['work_list'])
    cpu = cpu['node']['tqe_next']
end
p qemu_clock_get_ns(1)
p qemu_clock_get_ns(3)
python
import gdb
try:
    ch = gdb.parse_and_eval('serial_hds[0]')
    print('chardev', ch)
    be = ch['be']
    print('be', be.dereference())
    s = be['opaque'].cast(gdb.lookup_type('SerialState').pointer())
    print('serial fifo num', s['recv_fifo']['num'], 'itl', s['recv_fifo_itl'], 'lsr', hex(int(s['lsr'])), 'ier', hex(int(s['ier'])), 'iir', hex(int(s['iir'])), 'fcr', hex(int(s['fcr'])), 'timeout_ipending', s['timeout_ipending'], 'thr_ipending', s['thr_ipending'])
    print('fifo timer expire', s['fifo_timeout_timer']['expire_time'])
except Exception as e:
    print('serial state: ', e)
end
