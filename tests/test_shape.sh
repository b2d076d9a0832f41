#!/usr/bin/env bash
# test_shape.sh -- the workbook keeps its shape: file sizes of sources, step headers, exercises and Makefiles
# (shape.py states each limit and why).
exec python3 "$(dirname "$0")/shape.py"
