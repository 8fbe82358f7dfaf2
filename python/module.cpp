// The `ptoplug._ptoplug` extension: the C++ API (ptoplug.hpp) for Python. The package around it
// (python/ptoplug/) adds bytes and pypto Programs in, the same kind out, and pypto's pass wrapper.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <ptoplug/ptoplug.hpp>

#include "api/program_access.h"
#include "pypto_graph_reader.h"
#include "pypto_graph_writer.h"

namespace py = pybind11;

namespace {

// Text the host gives as bytes (a file name or a message naming one), as Python text: bytes that are not
// UTF-8 (pypto keeps a name as the bytes it was given) shown escaped, never an error in place of the report.
py::str text(std::string_view bytes) {
    PyObject* decoded = PyUnicode_DecodeUTF8(bytes.data(), static_cast<Py_ssize_t>(bytes.size()), "backslashreplace");
    if (!decoded) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(decoded);
}

py::dict toPython(const ptoplug::Diagnostic& d) {
    return py::dict(py::arg("severity") = d.severity, py::arg("rule") = text(d.rule),
                    py::arg("message") = text(d.message), py::arg("file") = text(d.file), py::arg("line") = d.line,
                    py::arg("column") = d.column);
}

py::list toPython(const std::vector<ptoplug::Diagnostic>& diagnostics) {
    py::list list;
    for (const ptoplug::Diagnostic& d : diagnostics) list.append(toPython(d));
    return list;
}

}  // namespace

PYBIND11_MODULE(_ptoplug, m) {
    m.doc() = "ptoplug: run pypto pass plugins over serialized programs";
    // PassError is a ValueError, NodeRefusedError a TypeError and InternalError a RuntimeError, as pypto
    // raises them; the classes are
    // defined in Python (ptoplug/errors.py) and registered here.
    py::module_ errors = py::module_::import("ptoplug.errors");
    static py::object passError = errors.attr("PassError");
    static py::object internalError = errors.attr("InternalError");
    static py::object nodeRefusedError = errors.attr("NodeRefusedError");
    static py::object fileError = errors.attr("FileError");
    // pybind11 takes a translator as a function pointer of this exact signature.
    py::register_exception_translator([](std::exception_ptr p) {  // NOLINT(performance-unnecessary-value-param)
        try {
            if (p) std::rethrow_exception(p);
        } catch (const ptoplug::PassError& e) {
            py::object error = (e.nodeRefused() ? nodeRefusedError
                                : e.internal()  ? internalError
                                                : passError)(text(e.what()), toPython(e.diagnostics()));
            PyErr_SetObject(error.get_type().ptr(), error.ptr());
        } catch (const ptoplug::FileError& e) {
            PyErr_SetObject(fileError.ptr(), text(e.what()).ptr());
        }
    });

    py::enum_<ptoplug::Format>(m, "Format")
        .value("MSGPACK", ptoplug::Format::MsgPack)
        .value("JSON", ptoplug::Format::Json);

    // Where a Program read from a pypto Program came from (python/pypto_origin.h); opaque to Python.
    // Shared: a document read keeps its origin for the spans it reads when asked for.
    py::class_<ptoplug::python::PyptoOrigin, std::shared_ptr<ptoplug::python::PyptoOrigin>>(m, "PyptoOrigin")
        .def(py::init<>())  // empty: every node is new
        .def("take_failure", &ptoplug::python::PyptoOrigin::takeFailure);

    py::class_<ptoplug::Program>(m, "Program")
        .def_static("read", &ptoplug::Program::read, py::arg("path"))
        .def_static(
            "from_bytes", [](const py::bytes& b) { return ptoplug::Program::from_bytes(std::string(b)); },
            py::arg("data"))
        .def_static(
            "from_pypto",
            [](py::handle program) -> py::tuple {
                // (the Program, where its nodes came from, "") read from the pypto Program's objects, or
                // (None, None, what it holds that is not read so): the caller then serializes it.
                auto origin = std::make_shared<ptoplug::python::PyptoOrigin>();
                std::string unsupported;
                auto doc = ptoplug::python::readPyptoGraph(program.ptr(), origin, unsupported);
                if (!doc) return py::make_tuple(py::none(), py::none(), unsupported);
                return py::make_tuple(ptoplug::ProgramAccess::fromDocument(std::move(doc)), std::move(origin), "");
            },
            py::arg("program"))
        .def(
            "to_pypto",
            [](const ptoplug::Program& p, const ptoplug::python::PyptoOrigin& origin) -> py::tuple {
                // (the pypto Program, "") reusing the objects of `origin` the pass left as they were, or
                // (None, what it holds that is not built so): the caller then deserializes its bytes.
                std::string unsupported;
                py::object out =
                    ptoplug::python::writePyptoGraph(ptoplug::ProgramAccess::document(p), origin, unsupported);
                return py::make_tuple(out, unsupported);
            },
            py::arg("origin"))
        .def("write", py::overload_cast<const std::string&>(&ptoplug::Program::write, py::const_), py::arg("path"))
        .def(
            "to_bytes", [](const ptoplug::Program& p, ptoplug::Format f) { return py::bytes(p.to_bytes(f)); },
            py::arg("format"))
        .def_property_readonly("format", &ptoplug::Program::format);

    py::class_<ptoplug::Pass>(m, "Pass")
        .def(
            "run",
            [](const ptoplug::Pass& pass, ptoplug::Program& program, bool verify) {
                // In place: the Python object stays the one program, now transformed. The diagnostics of
                // a success (warnings, notes) are returned; without `verify` the pass runs alone.
                std::vector<ptoplug::Diagnostic> diagnostics;
                if (verify)
                    program = pass(std::move(program));
                else
                    program = pass.transform(std::move(program), &diagnostics);
                return toPython(diagnostics);
            },
            py::arg("program"), py::arg("verify"))
        .def_property_readonly("name", &ptoplug::Pass::name)
        .def_property_readonly("required", &ptoplug::Pass::required)
        .def_property_readonly("produced", &ptoplug::Pass::produced)
        .def_property_readonly("invalidated", &ptoplug::Pass::invalidated);

    py::class_<ptoplug::PassManager>(m, "PassManager")
        .def(py::init<const std::vector<std::string>&, bool, const std::vector<std::string>&>(), py::arg("manifests"),
             py::arg("default_plugins"), py::arg("pass_options"))
        .def(
            "run",
            [](const ptoplug::PassManager& pm, ptoplug::Program& program) { program = pm.run(std::move(program)); },
            py::arg("program"))
        .def_static("parse", &ptoplug::PassManager::parse, py::arg("pass_list"), py::arg("manifests"),
                    py::arg("default_plugins"))
        .def("describe", &ptoplug::PassManager::describe);

    m.def("manifests_in", &ptoplug::manifestsIn, py::arg("plugin_dir"));
    m.def("load_pass", &ptoplug::load_pass, py::arg("manifest"), py::arg("pass_name"), py::arg("options"));
    m.def("materialize_dist_tensor_ctx",
          py::overload_cast<const std::string&>(&ptoplug::passes::MaterializeDistTensorCtx), py::arg("plugin_dir"));
}
