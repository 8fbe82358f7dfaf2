"""ptoplug: pypto's passes as plugins, usable from Python.

    from ptoplug import passes
    program = passes.materialize_dist_tensor_ctx()(program)      # the pass alone, as pypto's pass object
    pipeline.add_pass(passes.materialize_dist_tensor_ctx().as_pypto_pass())   # in pypto's PassPipeline
    program = passes.PassManager()(program)                      # the pipeline, verified as pto-host does

`program` is bytes (MessagePack or JSON; the same format comes back) or, when pypto is importable, a
pypto Program (a pypto Program comes back). Errors, with pypto's text: PassError (a ValueError, as
pypto's pass raises), NodeRefusedError (a TypeError: the pass built a node pypto's constructor refuses), InternalError (a RuntimeError; on a pypto Program also a pypto.InternalError),
FileError (a ValueError: bytes that are not pypto IR).
"""
from ptoplug.errors import FileError, InternalError, NodeRefusedError, PassError
from ptoplug import passes

__all__ = ["passes", "PassError", "NodeRefusedError", "InternalError", "FileError"]
