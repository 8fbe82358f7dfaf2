"""pypto's passes, run by their ptoplug plugins (in this process).

Each factory returns a Pass that behaves as pypto's pass object: called on a program it runs the pass
alone, verifying no property (pypto verifies in its PassPipeline and PassManager); it answers pypto's
pass interface (get_name(), get_required_properties(), ...), and as_pypto_pass() gives a real pypto
Pass, with the pass's properties, for pypto's PassPipeline. A program is bytes (MessagePack or JSON, the
same format comes back) or, when pypto is importable, a pypto Program (a pypto Program comes back).
PassManager runs pypto's default pipeline with the plugin passes in place (or exactly a pass list, as
pto-host --passes) and verifies as pto-host does. load_plugin(manifest).passes.<PassName>(**options) makes
any plugin's pass.
"""
import contextlib
import importlib
import json
import os
import types
import warnings

from ptoplug import _ptoplug
from ptoplug.errors import InternalError

__all__ = ["Pass", "PassManager", "PassWarning", "Plugin", "load_plugin", "materialize_dist_tensor_ctx", "plugin_dir"]


class PassWarning(UserWarning):
    """A warning of a pass, where pypto is not importable (with pypto, its logger prints it as pypto's own)."""


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


_pypto_internal_error = None


def _as_pyptos_internal_error(error, pypto):
    """`error` as an exception that is both ptoplug's InternalError and pypto.InternalError."""
    global _pypto_internal_error
    if _pypto_internal_error is None:
        _pypto_internal_error = type("InternalError", (InternalError, pypto.InternalError), {})
    raised = _pypto_internal_error.__new__(_pypto_internal_error)
    RuntimeError.__init__(raised, str(error))
    raised.diagnostics = error.diagnostics
    return raised


def _deliver(diagnostics, pass_name):
    """A successful run's warnings and notes, as pypto delivers a pipeline's own: through pypto's logger
    (stderr, at its log level: `[warning] [rule] (pass) message at file:line:col`); without pypto,
    warnings as Python warnings (PassWarning)."""
    pypto = _pypto()
    for d in diagnostics:
        text = d["message"]
        if d["line"] > 0:
            text += " at %s:%d:%d" % (d["file"], d["line"], d["column"])
        if pypto is None:
            if d["severity"] == "warning":
                warnings.warn("[%s] %s" % (d["rule"], text), PassWarning, stacklevel=3)
        elif d["severity"] == "warning":
            pypto.log_warn("[warning] [%s] (%s) %s" % (d["rule"], pass_name, text))
        else:
            pypto.log_info("[%s] [%s] (%s) %s" % (d["severity"], d["rule"], pass_name, text))


@contextlib.contextmanager
def _raising_span_failures(origin):
    """Spans are read from pypto's objects when asked for (docs/ir_format.md §11.16): what such a read raised
    during the block is raised at its end, whatever ptoplug made of it, as reading them all up front would
    have raised it."""
    try:
        yield
    finally:
        failure = origin.take_failure() if origin is not None else None
        if failure is not None:
            raise failure


def _apply(program, run):
    """`run(native)` on `program` (bytes or a pypto Program), giving the same kind back; returns that and
    what `run` returned."""
    if isinstance(program, (bytes, bytearray, memoryview)):
        native = _ptoplug.Program.from_bytes(bytes(program))
        result = run(native)
        return native.to_bytes(native.format), result
    pypto = _pypto()
    if pypto is not None and isinstance(program, pypto.ir.Program):
        # Read from the Program's objects and written back reusing those the pass left as they were; what
        # that cannot read or build (docs/ir_format.md §11.16) goes through pypto's serializer or
        # deserializer, at their cost.
        native, origin, _ = _ptoplug.Program.from_pypto(program)
        if native is None:
            native = _ptoplug.Program.from_bytes(pypto.ir.serialize(program))
        with _raising_span_failures(origin):
            try:
                result = run(native)
            except InternalError as error:
                raise _as_pyptos_internal_error(error, pypto) from None
            out = native.to_pypto(origin)[0] if origin is not None else None
            if out is None:
                # pypto reads what ptoplug writes (docs/ir_format.md §11.5); never hand it its own bytes back.
                out = pypto.ir.deserialize(native.to_bytes(_ptoplug.Format.MSGPACK))
        return out, result
    raise TypeError("a pass takes bytes (MessagePack or JSON) or a pypto Program, not " + type(program).__name__)


def _property_set(names):
    """pypto's IRPropertySet of these property names."""
    passes = importlib.import_module("pypto.pypto_core.passes")
    result = passes.IRPropertySet()
    for name in names:
        result.insert(getattr(passes.IRProperty, name))
    return result


class Pass:
    """A plugin pass, as pypto's pass object: calling it runs the pass alone (no property verification)
    and raises ptoplug.PassError (a ValueError, as pypto's pass raises) when the pass rejects the program."""

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

    # pypto's pass interface (pypto.pypto_core.passes.Pass); the property sets are pypto's IRPropertySet.
    def get_name(self):
        return self.name

    def get_required_properties(self):
        return _property_set(self.required)

    def get_produced_properties(self):
        return _property_set(self.produced)

    def get_invalidated_properties(self):
        return _property_set(self.invalidated)

    def __call__(self, program):
        out, diagnostics = _apply(program, lambda native: self._native.run(native, verify=False))
        _deliver(diagnostics, self.name)
        return out

    def as_pypto_pass(self):
        """This pass as a pypto Pass (passes.create_program_pass) with its IR properties: pypto's
        PassPipeline and PassManager run it and verify what it produces at their verification level.
        (pypto's PassPipeline.add_pass takes only pypto's own Pass objects, which Python cannot subclass.)"""
        passes = importlib.import_module("pypto.pypto_core.passes")
        return passes.create_program_pass(
            self.__call__,
            name=self.name,
            properties=passes.PassProperties(
                _property_set(self.required), _property_set(self.produced), _property_set(self.invalidated)
            ),
        )


class PassManager:
    """pypto's default pipeline with the passes of the installed plugins (and `manifests`) in place, run
    as pto-host runs it: each pass, then the structural check and the verifiers of what it produces.
    `pass_options` are "PASS.KEY=VALUE" settings (pto-host's --pass-option). With `passes`, a pass list as
    pto-host --passes takes it ("A,B{key=value}"), exactly those passes run, in that order."""

    def __init__(self, manifests=(), default_plugins=True, pass_options=(), passes=None):
        defaults = _ptoplug.manifests_in(plugin_dir()) if default_plugins else []
        if passes is None:
            self._native = _ptoplug.PassManager(defaults + list(manifests), False, list(pass_options))
        else:
            if pass_options:
                raise ValueError("give a pass list's options in its braces: PassName{key=value}")
            self._native = _ptoplug.PassManager.parse(passes, defaults + list(manifests), False)

    def __call__(self, program):
        return _apply(program, self._native.run)[0]

    run = __call__

    def describe(self):
        """The resolved pipeline, one stage a line (as `pto-host pipeline` prints it)."""
        return self._native.describe()


def _option_text(value):
    """An option's value as --pass-option writes it (bool as true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Plugin:
    """A plugin, from its manifest: `passes.<PassName>(**options)` makes each of its passes, a Pass like
    materialize_dist_tensor_ctx(), with keyword options (checked against what the pass declares)."""

    def __init__(self, manifest):
        self.manifest = manifest
        with open(manifest, encoding="utf-8") as f:
            names = [p["name"] for p in json.load(f)["passes"]]

        def factory(name):
            def make(**options):
                pairs = [(key, _option_text(value)) for key, value in options.items()]
                return Pass(_ptoplug.load_pass(manifest, name, pairs))

            make.__name__ = name
            make.__doc__ = "Pass %s of the plugin of %s, with these options." % (name, manifest)
            return make

        self.passes = types.SimpleNamespace(**{name: factory(name) for name in names})


def load_plugin(manifest):
    """The plugin declared by `manifest`: load_plugin(m).passes.RenameFunctions(pattern="chip_(.*)")."""
    return Plugin(manifest)


def materialize_dist_tensor_ctx():
    """pypto's passes.materialize_dist_tensor_ctx(), from the installed plugin."""
    return Pass(_ptoplug.materialize_dist_tensor_ctx(plugin_dir()))
