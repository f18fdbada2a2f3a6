#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run every test suite; see tests/run-all.py.
exec python3 "$(dirname "$0")/run-all.py" "$@"
