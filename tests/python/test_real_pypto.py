"""The Python package inside a real pypto (built from source: scripts/test-pypto.sh); every test skips
where the pypto importable is not the real one (CI has the stand-in). Each compares with what pypto's own
pass object does in the same place: the pass alone verifies nothing, pypto's PassPipeline verifies what
it produces, errors are pypto's classes and text, warnings go through pypto's logger, and the README's
pypto example runs as written.
Run: PYTHONPATH=build/python:<pypto> PTOPLUG_TEST_DATA=tests/data python3 -m unittest test_real_pypto"""
import os
import re
import tempfile
import unittest

import ptoplug
from ptoplug import _ptoplug, passes

try:
    import pypto
    from pypto.pypto_core import ir
    from pypto.pypto_core import passes as pypto_passes

    REAL = hasattr(pypto_passes, "PassPipeline")
except ImportError:
    REAL = False

DATA = os.environ["PTOPLUG_TEST_DATA"]
README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "README.md")


def data(*parts):
    with open(os.path.join(DATA, *parts), "rb") as f:
        return f.read()


def program(*parts):
    """A fixture as a pypto Program (JSON fixtures through ptoplug's MessagePack, which pypto reads)."""
    raw = data(*parts)
    return ir.deserialize(_ptoplug.Program.from_bytes(raw).to_bytes(_ptoplug.Format.MSGPACK))


def pipeline(pass_obj):
    result = pypto_passes.PassPipeline()
    result.add_pass(pass_obj)
    return result


def outcome(run):
    """What `run()` gives: ("ok", the program) or (the exception, the first line of its text: pypto's user
    errors add the C++ check that failed below it)."""
    try:
        return "ok", run()
    except Exception as error:  # noqa: BLE001 - compared with pypto's, whatever it is
        return error, str(error).split("\n")[0]


def placed_at(span):
    """A program the pass warns about at each function (it already has its contexts), its first function
    placed at `span`; and that function."""
    prog = program("pypto-unit", "param_alias_forwards_materialized_comm_ctx_param", "after.msgpack")
    functions = list(prog.functions.values())
    f = functions[0]
    placed = ir.Function(f.name, list(zip(f.params, f.param_directions)), f.return_types, f.body, span,
                         f.func_type, f.level, f.role, f.attrs, f.requires_runtime_binding)
    return ir.Program([placed] + functions[1:], prog.name, prog.span), f


class CapturedStderr:
    """What pypto's logger writes to file descriptor 2 meanwhile (std::cerr, not sys.stderr)."""

    def __enter__(self):
        self.file = tempfile.TemporaryFile()
        self.saved = os.dup(2)
        os.dup2(self.file.fileno(), 2)
        return self

    def __exit__(self, *exc):
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.file.seek(0)
        self.text = self.file.read().decode("utf-8", "replace")
        self.file.close()


class QuietPypto(unittest.TestCase):
    """pypto's logger at ERROR during each test: pypto's own checks warn about the generated programs'
    unused variables."""

    def setUp(self):
        self.level = pypto.get_log_level()
        pypto.set_log_level(pypto.LogLevel.ERROR)

    def tearDown(self):
        pypto.set_log_level(self.level)


@unittest.skipUnless(REAL, "needs a real pypto (scripts/test-pypto.sh)")
class AsPyptosPassObject(QuietPypto):
    # The pass succeeds on it; what it produces does not hold (DistTensorCtxMaterialized).
    UNVERIFIED = ("pypto-random", "0012", "before.json")
    REJECTED = ("pypto-unit", "loop_rebinding_carry_to_another_distributed_tensor_is_rejected", "before.msgpack")

    def same(self, ours, theirs, where):
        (a, a_text), (b, b_text) = outcome(ours), outcome(theirs)
        if a == "ok" or b == "ok":
            self.assertEqual((a, b), ("ok", "ok"), where)
            try:
                ir.assert_structural_equal(a_text, b_text, True)
            except ValueError as difference:
                self.fail("%s: %s" % (where, difference))
        else:
            # Where pypto raises an internal error that the input causes, ptoplug raises a user error (a
            # PassError) with pypto's text (docs/pass.md: I1, I3-I6, B3).
            if not (isinstance(b, pypto.InternalError) and isinstance(a, ptoplug.PassError)):
                self.assertIsInstance(a, type(b), where)
            self.assertEqual(a_text, b_text, where)

    def test_alone_it_verifies_nothing_as_pyptos(self):
        prog = program(*self.UNVERIFIED)
        self.same(lambda: passes.materialize_dist_tensor_ctx()(prog),
                  lambda: pypto_passes.materialize_dist_tensor_ctx()(prog), "alone")

    def test_in_pyptos_pipeline_pypto_verifies_and_raises_pypto_error(self):
        prog = program(*self.UNVERIFIED)
        with self.assertRaises(pypto.Error) as ours:
            pipeline(passes.materialize_dist_tensor_ctx().as_pypto_pass()).run(prog)
        with self.assertRaises(pypto.Error) as theirs:
            pipeline(pypto_passes.materialize_dist_tensor_ctx()).run(prog)
        self.assertEqual(str(ours.exception), str(theirs.exception))

    def test_ptoplugs_pass_manager_verifies_as_pto_host(self):
        with self.assertRaises(ptoplug.PassError) as raised:
            passes.PassManager()(program(*self.UNVERIFIED))
        self.assertIn("still calls pld.system.get_comm_ctx", str(raised.exception))

    def test_a_rejected_program_raises_pyptos_class_and_text_alone_and_in_the_pipeline(self):
        prog = program(*self.REJECTED)
        self.same(lambda: passes.materialize_dist_tensor_ctx()(prog),
                  lambda: pypto_passes.materialize_dist_tensor_ctx()(prog), "alone")
        self.same(lambda: pipeline(passes.materialize_dist_tensor_ctx().as_pypto_pass()).run(prog),
                  lambda: pipeline(pypto_passes.materialize_dist_tensor_ctx()).run(prog), "pipeline")
        with self.assertRaises(ValueError) as raised:
            passes.materialize_dist_tensor_ctx()(prog)
        self.assertTrue(str(raised.exception).endswith(" [test_materialize_dist_tensor_ctx.py:698:13]"))

    def test_it_answers_pyptos_pass_interface(self):
        ours, theirs = passes.materialize_dist_tensor_ctx(), pypto_passes.materialize_dist_tensor_ctx()
        for method in ("get_name", "get_required_properties", "get_produced_properties",
                       "get_invalidated_properties"):
            self.assertEqual(str(getattr(ours, method)()), str(getattr(theirs, method)()), method)
            wrapped = ours.as_pypto_pass()
            self.assertEqual(str(getattr(wrapped, method)()), str(getattr(theirs, method)()), method)

    def test_its_warnings_go_through_pyptos_logger(self):
        # Run on its own output, the pass adds a second set of contexts and warns (docs/pass.md §11).
        prog = program("pypto-unit", "param_alias_forwards_materialized_comm_ctx_param", "after.msgpack")
        pypto.set_log_level(pypto.LogLevel.WARN)
        with CapturedStderr() as logged:
            passes.materialize_dist_tensor_ctx()(prog)
        self.assertRegex(logged.text, r" W \| \[warning\] \[MaterializeDistTensorCtx/already-materialized\] "
                                      r"\(MaterializeDistTensorCtx\) function '\w+' already ends with one CommCtx")
        pypto.set_log_level(pypto.LogLevel.ERROR)
        with CapturedStderr() as quiet:
            passes.materialize_dist_tensor_ctx()(prog)
        self.assertEqual(quiet.text, "")

    def test_a_warning_names_the_place_pyptos_span_gives(self):
        # A node's span is read from its pypto object when something shows it (docs/ir_format.md §11.16):
        # the place is the one the bytes of the same program give.
        prog, f = placed_at(ir.Span("placed.py", 7, 3))
        pypto.set_log_level(pypto.LogLevel.WARN)
        shown = []
        for given in (prog, ir.serialize(prog)):
            with CapturedStderr() as logged:
                passes.materialize_dist_tensor_ctx()(given)
            shown.append([line.split(" W | ", 1)[1] for line in logged.text.splitlines()])
        self.assertEqual(shown[0], shown[1])
        self.assertIn("function '%s' already ends with one CommCtx" % f.name, "\n".join(shown[0]))
        self.assertEqual(sum(line.endswith(" at placed.py:7:3") for line in shown[0]), 1)

    def test_every_fixture_gives_pyptos_result(self):
        # The unit fixtures' inputs and outputs (fed back), the generated programs' inputs. (Fed back, a
        # generated program may differ: pypto reuses a context variable the input already has.)
        cases = []
        for kind, names in (("pypto-unit", ("before.json", "after.json")), ("pypto-random", ("before.json",))):
            for case in sorted(os.listdir(os.path.join(DATA, kind))):
                for name in names:
                    if os.path.exists(os.path.join(DATA, kind, case, name)):
                        cases.append((kind, case, name))
        self.assertGreater(len(cases), 100)
        for case in cases:
            try:
                prog = program(*case)
            except Exception:  # noqa: BLE001 - pypto cannot read some host programs (docs/ir_format.md §11.5)
                continue
            self.same(lambda: passes.materialize_dist_tensor_ctx()(prog),
                      lambda: pypto_passes.materialize_dist_tensor_ctx()(prog), "/".join(case))


def fixture_cases():
    """Every program of tests/data that pypto reads: pypto's unit fixtures (inputs and outputs), the
    generated programs, and their outputs fed back."""
    cases = []
    for root, _, files in os.walk(DATA):
        if os.path.relpath(root, DATA).split(os.sep)[0] not in ("pypto-unit", "pypto-random", "pypto-fed-back"):
            continue
        cases += [os.path.relpath(os.path.join(root, f), DATA) for f in files if f.endswith((".json", ".msgpack"))]
    return sorted(cases)


def through_pyptos_serializer(prog):
    """What the package did before it read and built pypto's objects: pypto's bytes of the program, the
    pass on them, and pypto's reading of ptoplug's bytes."""
    native = _ptoplug.Program.from_bytes(ir.serialize(prog))
    passes.materialize_dist_tensor_ctx()._native.run(native, verify=False)
    return ir.deserialize(native.to_bytes(_ptoplug.Format.MSGPACK))


@unittest.skipUnless(REAL, "needs a real pypto (scripts/test-pypto.sh)")
class ReadFromPyptosObjects(QuietPypto):
    """A pypto Program is read from its objects and written back as new objects only where the pass
    changed it (docs/ir_format.md §11.16), not through ir.serialize and ir.deserialize."""

    def test_every_fixture_reads_as_pyptos_serialization_of_it_reads(self):
        read = 0
        for case in fixture_cases():
            try:
                prog = program(case)
            except Exception:  # noqa: BLE001 - pypto cannot read some host programs (docs/ir_format.md §11.5)
                continue
            native, _, unsupported = _ptoplug.Program.from_pypto(prog)
            self.assertEqual(unsupported, "", case)
            serialized = _ptoplug.Program.from_bytes(ir.serialize(prog))
            self.assertEqual(native.to_bytes(_ptoplug.Format.JSON), serialized.to_bytes(_ptoplug.Format.JSON), case)
            read += 1
        self.assertGreater(read, 300)

    def test_every_fixture_gives_what_the_serializers_way_gave(self):
        for case in fixture_cases():
            try:
                prog = program(case)
            except Exception:  # noqa: BLE001 - as above
                continue
            (a, a_out), (b, b_out) = (outcome(lambda: passes.materialize_dist_tensor_ctx()(prog)),
                                      outcome(lambda: through_pyptos_serializer(prog)))
            if a == "ok" or b == "ok":
                self.assertEqual((a, b), ("ok", "ok"), case)
                ir.assert_structural_equal(a_out, b_out, True)
            else:
                self.assertIsInstance(a, type(b), case)  # ptoplug's InternalError is pypto's one too
                self.assertEqual(a_out, b_out, case)

    def test_every_result_is_built_reusing_the_objects_pyptos_own_pass_keeps(self):
        # Copy-on-write as pypto's IRMutator: a function pypto's own pass returns as it was given is the
        # very object given here too, and every other one is new.
        functions = 0
        for case in fixture_cases():
            try:
                prog = program(case)
                theirs = pypto_passes.materialize_dist_tensor_ctx()(prog)
            except Exception:  # noqa: BLE001 - unreadable, or rejected (compared above)
                continue
            native, origin, _ = _ptoplug.Program.from_pypto(prog)
            passes.materialize_dist_tensor_ctx()._native.run(native, verify=False)
            ours, unsupported = native.to_pypto(origin)
            self.assertEqual(unsupported, "", case)
            theirs_by_name = {g.name: f for g, f in theirs.functions.items()}
            ours_by_name = {g.name: f for g, f in ours.functions.items()}
            for g, given in prog.functions.items():
                kept = theirs_by_name[g.name].same_as(given)
                self.assertEqual(ours_by_name[g.name] is given, kept, "%s: %s" % (case, g.name))
                functions += 1
        self.assertGreater(functions, 1000)

    def test_every_fixture_built_from_nothing_is_what_pyptos_deserializer_reads(self):
        # With an empty origin every node is new: each node type's constructor call, on every program.
        built = 0
        for case in fixture_cases():
            native = _ptoplug.Program.from_bytes(data(case))
            try:
                theirs = ir.deserialize(native.to_bytes(_ptoplug.Format.MSGPACK))
            except Exception:  # noqa: BLE001 - pypto cannot read some host programs (docs/ir_format.md §11.5)
                continue
            ours, unsupported = native.to_pypto(_ptoplug.PyptoOrigin())
            self.assertEqual(unsupported, "", case)
            ir.assert_structural_equal(ours, theirs, True)
            built += 1
        self.assertGreater(built, 300)

    def test_memrefs_read_as_pyptos_serialization_of_them_reads(self):
        # None in the fixtures: a MemRef node (its fields shown as base_, ...), and inline in a tensor's and a
        # tile's type (with a slot), on one base.
        span = ir.Span("memrefs.py", 1, 1)
        index = pypto.DataType.INDEX
        base = ir.Var("buf", ir.PtrType(), span)
        whole = ir.MemRef(base, 0, 64)
        slot = ir.MemRef(base, ir.ConstInt(64, index, span), 64, span, 2, ir.ConstInt(1, index, span))
        tensor = ir.TensorType([16], pypto.DataType.FP32, whole)
        a = ir.Var("a", tensor, span)
        b = ir.Var("b", ir.TileType([16], pypto.DataType.FP32, slot, None, ir.MemorySpace.Vec), span)
        touch = ir.Call(ir.Op("tensor.touch"), [whole, a, b], {}, None, ir.ScalarType(pypto.DataType.INT32), span)
        body = ir.SeqStmts([ir.EvalStmt(touch, span), ir.ReturnStmt([a], span)], span)
        function = ir.Function("k", [(a, ir.ParamDirection.In), (b, ir.ParamDirection.In)], [tensor], body, span)
        prog = ir.Program([function], "memrefs", span)
        native, origin, unsupported = _ptoplug.Program.from_pypto(prog)
        self.assertEqual(unsupported, "")
        self.assertEqual(native.to_bytes(_ptoplug.Format.JSON),
                         _ptoplug.Program.from_bytes(ir.serialize(prog)).to_bytes(_ptoplug.Format.JSON))
        self.assertIs(native.to_pypto(origin)[0], prog)  # nothing changed: the very program
        # Python cannot make a MemRef as it was read (its name is the constructor's): pypto's deserializer.
        self.assertEqual(native.to_pypto(_ptoplug.PyptoOrigin()), (None, "a type with a MemRef"))

    def test_a_file_name_that_is_not_utf8_is_kept_as_the_bytes_pypto_holds(self):
        # pypto keeps a file name as the bytes it was given (here from bytes it read); Python cannot read them
        # as text, and ptoplug still writes them, and shows them escaped where pypto's own pass shows them.
        prog, f = placed_at(ir.Span("placed.py", 7, 3))
        prog = ir.deserialize(ir.serialize(prog).replace(b"placed.py", b"plac\xffd.py"))
        native, _, unsupported = _ptoplug.Program.from_pypto(prog)
        self.assertEqual(unsupported, "")
        written = native.to_bytes(_ptoplug.Format.MSGPACK)
        self.assertIn(b"plac\xffd.py", written)
        self.assertEqual(written, _ptoplug.Program.from_bytes(ir.serialize(prog)).to_bytes(_ptoplug.Format.MSGPACK))
        pypto.set_log_level(pypto.LogLevel.WARN)
        with CapturedStderr() as logged:
            out = passes.materialize_dist_tensor_ctx()(prog)
        ir.assert_structural_equal(out, pypto_passes.materialize_dist_tensor_ctx()(prog), True)
        self.assertIn("function '%s' already ends with one CommCtx" % f.name, logged.text)
        self.assertIn(" at plac\\xffd.py:7:3\n", logged.text)

    def test_a_span_pyptos_object_cannot_give_raises_what_reading_it_raised(self):
        # As reading every span up front raised it, whatever ptoplug made of the failed read meanwhile (a
        # coordinate that is no int: a TypeError saying so); bytes written name the span's place instead of
        # inventing a span.
        prog, _ = placed_at(ir.Span("placed.py", 7, 3))
        line = ir.Span.begin_line
        self.addCleanup(setattr, ir.Span, "begin_line", line)

        def broken(span):
            raise ZeroDivisionError("no line")

        for getter, raised, text in ((broken, ZeroDivisionError, "no line"),
                                     (lambda span: "seven", TypeError, "Unable to cast")):
            ir.Span.begin_line = property(getter)
            pypto.set_log_level(pypto.LogLevel.WARN)
            with CapturedStderr() as logged, self.assertRaisesRegex(raised, text):
                passes.materialize_dist_tensor_ctx()(prog)  # its warnings show the functions' places
            self.assertEqual(logged.text, "")
            native, _, _ = _ptoplug.Program.from_pypto(prog)
            with self.assertRaisesRegex(ptoplug.FileError, r"cannot be read: %s: %s.* "
                                                           r"\(at /fields/functions/0/value/fields/\w+/fields/span\)"
                                        % (raised.__name__, text)):
                native.to_bytes(_ptoplug.Format.JSON)

    def test_what_python_cannot_tell_apart_goes_through_pyptos_serializer(self):
        # A float attr: Python shows a float32 and a float64 alike, pypto's serializer does not.
        prog = program("pypto-unit", "param_alias_forwards_materialized_comm_ctx_param", "before.msgpack")
        functions = list(prog.functions.values())
        f = functions[0]
        scaled = ir.Function(f.name, list(zip(f.params, f.param_directions)), f.return_types, f.body, f.span,
                             f.func_type, f.level, f.role, dict(f.attrs, scale=2.5), f.requires_runtime_binding)
        prog = ir.Program([scaled] + functions[1:], prog.name, prog.span)
        self.assertEqual(_ptoplug.Program.from_pypto(prog), (None, None, "a float attribute 'scale'"))
        ir.assert_structural_equal(passes.materialize_dist_tensor_ctx()(prog), through_pyptos_serializer(prog), True)


@unittest.skipUnless(REAL, "needs a real pypto (scripts/test-pypto.sh)")
class ReadmeExample(QuietPypto):
    def test_the_readmes_pypto_example_runs_as_written(self):
        with open(README, encoding="utf-8") as f:
            text = f.read()
        snippet = re.search(r"<!-- pypto example -->\n```python\n(.*?)```", text, re.S).group(1)
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "program.msgpack"), "wb") as f:
                f.write(data("pypto-unit", "param_alias_forwards_materialized_comm_ctx_param", "before.msgpack"))
            cwd = os.getcwd()
            os.chdir(folder)
            try:
                scope = {}
                exec(compile(snippet, "README.md", "exec"), scope)  # noqa: S102 - the README's own example
            finally:
                os.chdir(cwd)
        expected = data("pypto-unit", "param_alias_forwards_materialized_comm_ctx_param", "after.msgpack")
        ir.assert_structural_equal(scope["program"], ir.deserialize(expected), True)


if __name__ == "__main__":
    unittest.main()
