#!/usr/bin/env bash
# test_copies.sh -- the starting files that are whole copies of a course program (exercises/prac1d.cu, ...)
# differ from it only in their header comment and TODO blocks (exercise_copies.py lists them).
exec python3 "$(dirname "$0")/exercise_copies.py"
