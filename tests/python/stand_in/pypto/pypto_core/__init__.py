from pypto.pypto_core import passes  # noqa: F401
