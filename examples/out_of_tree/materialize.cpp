// Runs pypto's MaterializeDistTensorCtx, as installed, over one program: the C++ API in a few lines.
//   materialize IN OUT
#include <ptoplug/ptoplug.hpp>

#include <iostream>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: materialize IN OUT\n";
        return 2;
    }
    try {
        ptoplug::Program program = ptoplug::Program::read(argv[1]);
        program = ptoplug::passes::MaterializeDistTensorCtx()(std::move(program));
        program.write(argv[2]);
    } catch (const ptoplug::PassError& e) {
        for (const ptoplug::Diagnostic& d : e.diagnostics())
            std::cerr << d.file << ":" << d.line << ":" << d.column << ": " << d.severity << ": " << d.message << " ["
                      << d.rule << "]\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\n";
        return 3;
    }
    return 0;
}
