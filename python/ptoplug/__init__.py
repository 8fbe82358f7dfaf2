"""ptoplug: pypto's passes as plugins, usable from Python.

    from ptoplug import passes
    program = passes.materialize_dist_tensor_ctx()(program)      # the pass alone, as pypto's pass object
    pipeline.add_pass(passes.materialize_dist_tensor_ctx().as_pypto_pass())   # in pypto's PassPipeline
    program = passes.PassManager()(program)                      # the pipeline, verified as pto-host does
    rename = ptoplug.load_plugin("rename_functions.json").passes.RenameFunctions(pattern="chip_(.*)")
    program = ptoplug.PassManager(passes="MaterializeDistTensorCtx")(program)   # exactly a pass list

`program` is bytes (MessagePack or JSON; the same format comes back) or, when pypto is importable, a
pypto Program (a pypto Program comes back). Errors, with pypto's text: PassError (a ValueError, as
pypto's pass raises), NodeRefusedError (a TypeError: the pass built a node pypto's constructor refuses), InternalError (a RuntimeError; on a pypto Program also a pypto.InternalError),
FileError (a ValueError: bytes that are not pypto IR).
"""
from ptoplug.errors import FileError, InternalError, NodeRefusedError, PassError
from ptoplug import passes
from ptoplug.passes import PassManager, load_plugin

__all__ = ["passes", "load_plugin", "PassManager", "PassError", "NodeRefusedError", "InternalError", "FileError"]
