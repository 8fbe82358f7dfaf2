"""ptoplug: pypto's passes as plugins, usable from Python.

    from ptoplug import passes
    program = passes.materialize_dist_tensor_ctx()(program)

`program` is bytes (MessagePack or JSON; the same format comes back) or, when pypto is importable, a
pypto Program (a pypto Program comes back). Errors: PassError (a ValueError, with pypto's message),
InternalError (a RuntimeError), FileError (a ValueError: bytes that are not pypto IR).
"""
from ptoplug.errors import FileError, InternalError, PassError
from ptoplug import passes

__all__ = ["passes", "PassError", "InternalError", "FileError"]
