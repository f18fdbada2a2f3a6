#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot an emulated board on this terminal: scripts/run.sh [BOARD [QEMU ARGS...]]
exec python3 "$(dirname "$0")/../tests/lib/board.py" "$@"
