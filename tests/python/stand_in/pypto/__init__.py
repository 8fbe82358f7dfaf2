"""A stand-in for pypto (not installable here) with the API ptoplug uses, as checked against a real build
of the commit ptoplug follows: pypto.ir.serialize / deserialize / Program, pypto.InternalError,
pypto.log_warn / log_info (what they were given is kept in `logged`), and
pypto.pypto_core.passes.create_program_pass / PassProperties / IRPropertySet / IRProperty."""
from pypto import ir, pypto_core  # noqa: F401

logged = []  # (level, message) of every log_warn and log_info


class Error(Exception):
    pass


class InternalError(RuntimeError):
    pass


def log_warn(message):
    logged.append(("WARN", message))


def log_info(message):
    logged.append(("INFO", message))
