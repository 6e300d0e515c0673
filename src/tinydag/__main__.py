import io
import os
import sys

from .cli import main

if isinstance(sys.stdout, io.TextIOWrapper):
    sys.stdout.reconfigure(encoding="utf-8")  # the JSON is UTF-8, whatever the locale says
try:
    code = main()
    sys.stdout.flush()
except BrokenPipeError:  # the reader closed the pipe early (`| head -c 0`): end quietly
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python flushes again at exit
    code = 1
sys.exit(code)
