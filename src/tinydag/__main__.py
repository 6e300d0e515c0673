import os
import sys

from .cli import main

try:
    code = main()
    sys.stdout.flush()
except BrokenPipeError:  # the reader closed the pipe early (`| head -c 0`): end quietly
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python flushes again at exit
    code = 1
sys.exit(code)
