#!/usr/bin/python3
"""pypto's answers for a ported pass (tests/data/<port>/), run by scripts/make-port-fixtures.sh.

  port_fixtures.py unit TEST_FILE FACTORY OUT     runs pypto's unit-test file (pytest) with passes.FACTORY wrapped:
      every program a test gives that pass is saved as OUT/<test>[_N]/before.json, with pypto's result
      (after.json) or the first line of its error (error.txt, "<Type>: <message>").
  port_fixtures.py random INPUTS FACTORY OUT      pypto's pass on INPUTS/<case>/before.json:
      OUT/<case>/after.json or error.txt.
JSON as the fixtures write it (run_pass.py of the shared pypto tools, on sys.path via PYPTO_TOOLS).
"""
import glob
import os
import sys
import threading

sys.path.insert(0, os.environ["PYPTO_TOOLS"])
import run_pass as rp  # noqa: E402


def error_text(e):
    return "%s: %s\n" % (type(e).__name__, str(e).strip().split("\n", 1)[0])


def unit(test_file, factory, out_dir):
    from pypto import ir
    from pypto import passes as py_passes
    from pypto.pypto_core import passes as core_passes

    current = {"name": None, "n": 0}
    original = getattr(py_passes, factory)

    class Recorded:
        def __init__(self, p):
            self.p = p

        def __call__(self, program):
            name = current["name"] + ("" if current["n"] == 0 else "_%d" % current["n"])
            current["n"] += 1
            d = os.path.join(out_dir, name)
            os.makedirs(d, exist_ok=True)
            rp.write_output(os.path.join(d, "before.json"), bytes(ir.serialize(program)))
            try:
                out = self.p(program)
            except Exception as e:
                with open(os.path.join(d, "error.txt"), "w") as f:
                    f.write(error_text(e))
                raise
            rp.write_output(os.path.join(d, "after.json"), bytes(ir.serialize(out)))
            return out

        def __getattr__(self, a):
            return getattr(self.p, a)

    def recorded(*a, **k):
        return Recorded(original(*a, **k))

    setattr(py_passes, factory, recorded)
    setattr(core_passes, factory, recorded)

    class Names:  # names each test's programs after the test (pytest runs them in file order)
        @staticmethod
        def pytest_runtest_setup(item):
            current["name"], current["n"] = item.name, 0

    import pytest

    pytest.main([test_file, "-q", "-p", "no:cacheprovider", "-W", "ignore"], plugins=[Names()])


def random(inputs, factory, out_dir):
    for f in sorted(glob.glob(os.path.join(inputs, "*/before.json"))):
        d = os.path.join(out_dir, os.path.basename(os.path.dirname(f)))
        os.makedirs(d, exist_ok=True)
        _fmt, _raw, mp = rp.read_input(f)
        try:
            out = rp.run_pass(mp, factory)
        except Exception as e:
            with open(os.path.join(d, "error.txt"), "w") as fh:
                fh.write(error_text(e))
            continue
        rp.write_output(os.path.join(d, "after.json"), bytes(out))


if __name__ == "__main__":
    mode, source, factory, out = sys.argv[1:5]
    sys.setrecursionlimit(200000)
    threading.stack_size(512 * 1024 * 1024)  # deep IR trees
    t = threading.Thread(target=lambda: (unit if mode == "unit" else random)(source, factory, out))
    t.start()
    t.join()
