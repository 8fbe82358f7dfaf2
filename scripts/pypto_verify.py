#!/usr/bin/python3
"""Real pypto's verdict on one IR property for each program given (pypto's verify_properties):
"OK <file>" or "FAIL <file>" a line. scripts/make-pypto-verdicts.sh runs it over the test data.

  pypto_verify.py PROPERTY FILE...

Reads files as the shared tool's run_pass.py does (its module is loaded from $PYPTO_TOOLS).
"""
import importlib.util
import os
import sys

tools = os.environ.get("PYPTO_TOOLS", os.path.join(os.path.dirname(__file__), "..", "..", "shared", "tools", "pypto"))
spec = importlib.util.spec_from_file_location("run_pass", os.path.join(tools, "run_pass.py"))
run_pass = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_pass)
ir, passes = run_pass.import_pypto()

prop = getattr(passes.IRProperty, sys.argv[1])
for path in sys.argv[2:]:
    _, _, packed = run_pass.read_input(path)
    try:
        program = ir.deserialize(packed)
    except ValueError:
        program = ir.deserialize(run_pass.normalize_placement(packed))
    wanted = passes.IRPropertySet()
    wanted.insert(prop)
    try:
        passes.verify_properties(wanted, program, "check")
        print("OK", path)
    except Exception:  # noqa: BLE001 - pypto's verification error, whatever its class
        print("FAIL", path)
