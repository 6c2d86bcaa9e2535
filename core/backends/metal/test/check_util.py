"""What the Metal backend's CLI checks share: a check list and running edgecompile."""
import subprocess


class Checks:
    def __init__(self, edgecompile):
        self.edgecompile = edgecompile
        self.fails = []

    def check(self, cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            self.fails.append(what)

    def run(self, *args, timeout=900):
        r = subprocess.run([self.edgecompile, *args], capture_output=True, text=True, timeout=timeout)
        return r.returncode, r.stdout, r.stderr

    def exit(self):
        print(f"{len(self.fails)} failure(s)")
        raise SystemExit(1 if self.fails else 0)
