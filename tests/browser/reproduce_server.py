# Runs the exported bundles' reproduce.py for tests/browser/export.test.mjs, each as its own process
# would, without paying for NumPy and PyTorch's import each time (1.6-2 CPU-s of the ~2 a run costs):
# they are imported once here, and each run is a fork of this process that runs the folder's
# reproduce.py as __main__ (runpy: a fresh namespace, so a name the script forgets to import still
# fails), its stdout and stderr in <folder>/.reproduce.out. Reads one folder a line on stdin and answers
# each with one line of JSON, {"status": exit status}, on stdout.
import json
import os
import runpy
import sys
import traceback

import numpy  # noqa: F401  (imported for the forks)
import torch  # noqa: F401


def run(folder):
    """In the forked child: the script at folder/reproduce.py as `python3 reproduce.py` there runs it."""
    out = os.open(os.path.join(folder, '.reproduce.out'), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.chdir(folder)
    script = os.path.join(folder, 'reproduce.py')
    sys.argv = [script]
    sys.path[0] = folder
    code = 0
    try:
        runpy.run_path(script, run_name='__main__')
    except SystemExit as e:  # as the interpreter ends on it: an int is the status, None 0, anything else printed and 1
        if e.code is None or isinstance(e.code, int):
            code = e.code or 0
        else:
            print(e.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


for line in sys.stdin:
    folder = line.rstrip('\n')
    pid = os.fork()
    if pid == 0:
        try:
            run(folder)
        finally:  # run() ends the child itself; this only when it failed before running the script
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    print(json.dumps({'status': os.waitstatus_to_exitcode(status)}), flush=True)
