# SPDX-License-Identifier: GPL-2.0
# The state of a hung QEMU 7.2 (built with debug info), for
# BOARD_GDB=file BOARD_GDB_SCRIPT=tests/lib/qemu-state.gdb
# (tests/lib/board.py): icount's warp state, the main loop's timer lists,
# the vCPUs and the first 16550.
set pagination off
p timers_state
p qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL)
p qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL_RT)
python
tlg = gdb.parse_and_eval('main_loop_tlg')
for i, name in enumerate(['REALTIME', 'VIRTUAL', 'HOST', 'VIRTUAL_RT']):
    t = tlg['tl'][i]['active_timers']
    print('clock', name)
    while t:
        print('   expire', int(t['expire_time']), 'cb', t['cb'])
        t = t['next']
cpu = gdb.parse_and_eval('cpus')['tqh_first']
while cpu:
    print('cpu', int(cpu['cpu_index']), 'halted', int(cpu['halted']),
          'stop', int(cpu['stop']), 'stopped', int(cpu['stopped']),
          'interrupt_request', hex(int(cpu['interrupt_request'])),
          'exit_request', int(cpu['exit_request']),
          'work', cpu['work_list']['sqh_first'])
    cpu = cpu['node']['tqe_next']
s = gdb.parse_and_eval('serial_hds[0]')['be']['opaque'].cast(
    gdb.lookup_type('SerialState').pointer())
print('16550: fifo', int(s['recv_fifo']['num']), 'itl',
      int(s['recv_fifo_itl']), 'lsr', hex(int(s['lsr'])),
      'ier', hex(int(s['ier'])), 'fcr', hex(int(s['fcr'])),
      'timeout_ipending', int(s['timeout_ipending']),
      'timeout timer', int(s['fifo_timeout_timer']['expire_time']))
end
