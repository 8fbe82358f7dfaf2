"""A stand-in for pypto (not installable here) with the API ptoplug uses, as checked against a real build
of the commit ptoplug follows: pypto.ir.serialize / deserialize / Program, and
pypto.pypto_core.passes.create_program_pass / PassProperties / IRPropertySet / IRProperty."""
from pypto import ir, pypto_core  # noqa: F401
