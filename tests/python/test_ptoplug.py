"""The Python package as its users have it: `from ptoplug import passes`, on bytes of both formats and
on (stand-in) pypto Programs, errors as pypto raises them, and the wrapper pypto's PassManager runs.
Run: PYTHONPATH=build/python:tests/python/stand_in PTOPLUG_TEST_DATA=tests/data python -m unittest"""
import os
import sys
import tempfile
import unittest

import ptoplug
from ptoplug import FileError, InternalError, NodeRefusedError, PassError, passes
import pypto
from pypto.pypto_core import passes as pypto_passes

DATA = os.path.join(os.environ["PTOPLUG_TEST_DATA"], "pypto-unit")
# The pass succeeds on it; what it produces does not hold (DistTensorCtxMaterialized).
UNVERIFIED = os.path.join(os.environ["PTOPLUG_TEST_DATA"], "pypto-random", "0012")


def fixture(name, file, folder=DATA):
    with open(os.path.join(folder, name, file), "rb") as f:
        return f.read()


class BytesIn(unittest.TestCase):
    def test_each_format_gives_pyptos_output_in_that_format(self):
        name = "param_alias_forwards_materialized_comm_ctx_param"
        for ext in ("msgpack", "json"):
            out = passes.materialize_dist_tensor_ctx()(fixture(name, "before." + ext))
            self.assertEqual(out, fixture(name, "after." + ext), ext)

    def test_a_rejected_program_raises_pass_error_with_pyptos_message(self):
        name = "device_call_without_materialized_context_rejects_synthesized_prefix"
        with self.assertRaises(PassError) as raised:
            passes.materialize_dist_tensor_ctx()(fixture(name, "before.msgpack"))
        self.assertIsInstance(raised.exception, ValueError)
        self.assertTrue(str(raised.exception).startswith("Cannot determine the communication context"))
        self.assertTrue(str(raised.exception).endswith(" [test_materialize_dist_tensor_ctx.py:1:1]"))
        self.assertEqual(raised.exception.diagnostics[0]["rule"], "MaterializeDistTensorCtx/unresolved-context")

    def test_a_node_pyptos_constructor_refuses_is_a_type_error_with_pyptos_text(self):
        # The fake adds one direction to the first call's arg_directions (tests/fake_plugins/fake_plugin.c).
        with tempfile.TemporaryDirectory() as folder:
            manifest = os.path.join(folder, "fake.json")
            with open(manifest, "w") as f:
                f.write('{"file_format_version": 2, "library": "%s", "passes": [{"name": "FakePass", '
                        '"placement": {"after": {"pass": "ConvertToSSA"}}}]}'
                        % os.path.join(os.environ["PTOPLUG_TEST_PLUGIN_DIR"], "libfake_breaks_directions.so"))
            manager = passes.PassManager([manifest], default_plugins=False)
            with self.assertRaises(TypeError) as raised:
                manager(fixture("buffer_aliasing_view_inherits_source_context", "before.json"))
        self.assertIsInstance(raised.exception, NodeRefusedError)
        self.assertEqual(str(raised.exception), "Call attrs['arg_directions'] size (2) must match args size (1)")

    def test_bad_input_raises_file_error_and_errors_are_pyptos_kinds(self):
        with self.assertRaises(FileError):
            passes.materialize_dist_tensor_ctx()(b"not IR")
        with self.assertRaises(TypeError):
            passes.materialize_dist_tensor_ctx()(42)
        self.assertTrue(issubclass(InternalError, RuntimeError))


class AsPyptosPassObject(unittest.TestCase):
    def test_alone_the_pass_verifies_nothing_and_the_pass_manager_verifies(self):
        before = fixture("", "before.json", UNVERIFIED)
        self.assertEqual(passes.materialize_dist_tensor_ctx()(before), fixture("", "after.json", UNVERIFIED))
        with self.assertRaises(PassError) as raised:
            passes.PassManager()(before)
        self.assertIn("still calls pld.system.get_comm_ctx", str(raised.exception))
        self.assertIn("MaterializeDistTensorCtx", passes.PassManager().describe())

    def test_it_answers_pyptos_pass_interface(self):
        mdtc = passes.materialize_dist_tensor_ctx()
        p = pypto_passes.IRProperty
        self.assertEqual(mdtc.get_name(), "MaterializeDistTensorCtx")
        self.assertEqual(mdtc.get_required_properties().items, {p.CommDomainScopesMaterialized, p.ReturnParamsExplicit})
        self.assertEqual(mdtc.get_produced_properties().items,
                         {p.CommDomainScopesMaterialized, p.DistTensorCtxMaterialized})
        self.assertEqual(mdtc.get_invalidated_properties().items, set())

    def test_warnings_go_through_pyptos_logger_or_pythons_warnings_without_pypto(self):
        # Run on its own output, the pass adds a second set of contexts and warns (docs/pass.md §11).
        name = "param_alias_forwards_materialized_comm_ctx_param"
        pypto.logged.clear()
        passes.materialize_dist_tensor_ctx()(fixture(name, "after.msgpack"))
        self.assertTrue(pypto.logged)
        for level, message in pypto.logged:
            self.assertEqual(level, "WARN")
            self.assertRegex(message, r"^\[warning\] \[MaterializeDistTensorCtx/already-materialized\] "
                                      r"\(MaterializeDistTensorCtx\) function '\w+' already ends .* at "
                                      r"test_materialize_dist_tensor_ctx.py:\d+:\d+$")
        saved = sys.modules["pypto"]
        sys.modules["pypto"] = None  # import pypto fails
        try:
            with self.assertWarns(passes.PassWarning) as warned:
                passes.materialize_dist_tensor_ctx()(fixture(name, "after.msgpack"))
        finally:
            sys.modules["pypto"] = saved
        self.assertIn("[MaterializeDistTensorCtx/already-materialized] function", str(warned.warning))


class PyptoProgramsIn(unittest.TestCase):
    def test_a_pypto_program_comes_back_built_from_ptoplugs_bytes(self):
        # A host program: pypto cannot read its own bytes of it (docs/ir_format.md §11.5).
        name = "host_dispatch_materializes_comm_ctx_args"
        before = pypto.ir.Program(fixture(name, "before.msgpack"))
        pypto.ir.deserialized.clear()
        after = passes.materialize_dist_tensor_ctx()(before)
        self.assertIsInstance(after, pypto.ir.Program)
        self.assertEqual(pypto.ir.deserialized, [after.data])
        self.assertNotEqual(after.data, before.data)
        again = passes.materialize_dist_tensor_ctx()(fixture(name, "before.msgpack"))
        self.assertEqual(after.data, again)

    def test_as_pypto_pass_carries_the_name_properties_and_transform(self):
        wrapped = passes.materialize_dist_tensor_ctx().as_pypto_pass()
        self.assertEqual(wrapped.name, "MaterializeDistTensorCtx")
        p = pypto_passes.IRProperty
        self.assertEqual(wrapped.properties.required.items, {p.CommDomainScopesMaterialized, p.ReturnParamsExplicit})
        self.assertEqual(wrapped.properties.produced.items, {p.CommDomainScopesMaterialized, p.DistTensorCtxMaterialized})
        self.assertEqual(wrapped.properties.invalidated.items, set())
        name = "param_alias_forwards_materialized_comm_ctx_param"
        out = wrapped(pypto.ir.Program(fixture(name, "before.msgpack")))
        self.assertEqual(out.data, fixture(name, "after.msgpack"))


if __name__ == "__main__":
    unittest.main()


EXAMPLES = os.path.join(os.environ["PTOPLUG_TEST_DATA"], "examples")
RENAME = os.path.join(os.environ["PTOPLUG_EXAMPLE_PLUGIN_DIR"], "rename_functions.json")


class AnyPluginsPass(unittest.TestCase):
    def test_load_plugin_gives_each_pass_as_a_factory_with_keyword_options(self):
        plugin = ptoplug.load_plugin(RENAME)
        rename = plugin.passes.RenameFunctions(pattern="chip_(.*)", replacement="device_$1")
        self.assertEqual(rename.get_name(), "RenameFunctions")
        with open(os.path.join(EXAMPLES, "input.json"), "rb") as f:
            program = ptoplug.PassManager()(f.read())
        with open(os.path.join(EXAMPLES, "expected_rename_functions.json"), "rb") as f:
            self.assertEqual(rename(program), f.read())
        with self.assertRaises(FileError) as raised:
            plugin.passes.RenameFunctions(colour="red")
        self.assertIn("has no option 'colour'", str(raised.exception))
        with self.assertRaises(AttributeError):
            plugin.passes.Rename

    def test_a_pass_manager_runs_exactly_a_pass_list(self):
        manager = ptoplug.PassManager(
            [RENAME], passes="MaterializeDistTensorCtx,RenameFunctions{pattern=chip_(.*) replacement=device_$1}")
        self.assertNotIn("Simplify", manager.describe())
        with open(os.path.join(EXAMPLES, "input.json"), "rb") as f:
            out = manager(f.read())
        with open(os.path.join(EXAMPLES, "expected_rename_functions.json"), "rb") as f:
            self.assertEqual(out, f.read())
        with self.assertRaises(FileError) as raised:
            ptoplug.PassManager([RENAME], passes="MaterializeDistTensorCtx;")
        self.assertIn("--passes:1:25: error: expected ',' between passes, found ';'", str(raised.exception))
