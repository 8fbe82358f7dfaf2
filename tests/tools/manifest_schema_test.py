"""The JSON Schema of manifests accepts the bundled manifest and rejects every bad one, and pto-host
agrees with it on each bad one (exit code 4, naming the manifest)."""
import glob
import json
import os
import subprocess
import sys

import jsonschema

root, host, built_manifest = sys.argv[1], sys.argv[2], sys.argv[3]
schema = json.load(open(os.path.join(root, "manifest.schema.json")))
validator = jsonschema.Draft202012Validator(schema)
jsonschema.Draft202012Validator.check_schema(schema)
failures = 0
for good in [os.path.join(root, "manifest.json"), built_manifest]:
    errors = list(validator.iter_errors(json.load(open(good))))
    if errors:
        print(f"FAIL {good}: {errors[0].message}")
        failures += 1
for bad in sorted(glob.glob(os.path.join(root, "tests/data/manifests/bad_*.json"))):
    if not list(validator.iter_errors(json.load(open(bad)))):
        print(f"FAIL {bad}: the schema accepts it")
        failures += 1
    run = subprocess.run([host, "--no-default-plugins", "--plugin", bad, "pipeline"], capture_output=True, text=True)
    if run.returncode != 4 or bad not in run.stderr:
        print(f"FAIL {bad}: pto-host exited {run.returncode}: {run.stderr.strip()}")
        failures += 1
print(f"{failures} failed")
sys.exit(1 if failures else 0)
