"""pypto's passes, run by their ptoplug plugins (in this process).

Each factory returns a Pass: call it on bytes (MessagePack or JSON, the same format comes back) or on
a pypto Program (when pypto is importable; a pypto Program comes back), or turn it into a pass that
pypto's own PassManager runs with as_pypto_pass().
"""
import importlib
import os

from ptoplug import _ptoplug

__all__ = ["Pass", "materialize_dist_tensor_ctx", "plugin_dir"]


def plugin_dir():
    """Where the plugins are: $PTOPLUG_PLUGIN_DIR, else lib/ptoplug of the build tree or install prefix
    this package belongs to."""
    explicit = os.environ.get("PTOPLUG_PLUGIN_DIR")
    if explicit:
        return explicit
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [
        os.path.join(here, "..", "..", "lib", "ptoplug"),  # build/python/ptoplug -> build/lib/ptoplug
        os.path.join(here, "..", "..", "..", "ptoplug"),  # P/lib/python3/dist-packages/ptoplug -> P/lib/ptoplug
    ]
    for candidate in candidates:
        if os.path.isdir(candidate):
            return os.path.normpath(candidate)
    return os.path.normpath(candidates[0])


def _pypto():
    try:
        return importlib.import_module("pypto")
    except ImportError:
        return None


class Pass:
    """A plugin pass. Calling it transforms a program; it raises ptoplug.PassError when the pass
    rejects the program."""

    def __init__(self, native):
        self._native = native

    @property
    def name(self):
        return self._native.name

    @property
    def required(self):
        return list(self._native.required)

    @property
    def produced(self):
        return list(self._native.produced)

    @property
    def invalidated(self):
        return list(self._native.invalidated)

    def __call__(self, program):
        if isinstance(program, (bytes, bytearray, memoryview)):
            native = _ptoplug.Program.from_bytes(bytes(program))
            self._native.run(native)
            return native.to_bytes(native.format)
        pypto = _pypto()
        if pypto is not None and isinstance(program, pypto.ir.Program):
            native = _ptoplug.Program.from_bytes(pypto.ir.serialize(program))
            self._native.run(native)
            # pypto reads what ptoplug writes (docs/ir_format.md §11.5); never hand it its own bytes back.
            return pypto.ir.deserialize(native.to_bytes(_ptoplug.Format.MSGPACK))
        raise TypeError("a pass takes bytes (MessagePack or JSON) or a pypto Program, not " + type(program).__name__)

    def as_pypto_pass(self):
        """This pass as a pypto Pass (passes.create_program_pass), with its IR properties, for pypto's
        PassManager."""
        passes = importlib.import_module("pypto.pypto_core.passes")

        def properties(names):
            result = passes.IRPropertySet()
            for name in names:
                result.insert(getattr(passes.IRProperty, name))
            return result

        return passes.create_program_pass(
            self.__call__,
            name=self.name,
            properties=passes.PassProperties(
                properties(self.required), properties(self.produced), properties(self.invalidated)
            ),
        )


def materialize_dist_tensor_ctx():
    """pypto's passes.materialize_dist_tensor_ctx(), from the installed plugin."""
    return Pass(_ptoplug.materialize_dist_tensor_ctx(plugin_dir()))
