"""The exceptions of ptoplug, as pypto raises them: user errors are ValueErrors, bugs RuntimeErrors.
Their text is pypto's: the first error's message with the ` [file:line:col]` of its node, when it has one."""


def pypto_text(message, diagnostics):
    """`message` as pypto's CHECK_SPAN shows it: followed by ` [file:line:col]` of the error it comes from
    when that error's place is a valid span (line > 0, column > 0 or -1, as pypto's Span::is_valid)."""
    for d in diagnostics:
        if "error" in d["severity"] and d["message"] == message:
            if d["line"] > 0 and (d["column"] > 0 or d["column"] == -1):
                return "%s [%s:%d:%d]" % (message, d["file"], d["line"], d["column"])
            break
    return message


class PassError(ValueError):
    """A pass or verifier rejected the program. str() is the first error's text as pypto shows it;
    `diagnostics` lists every diagnostic as a dict (severity, rule, message, file, line, column)."""

    def __init__(self, message, diagnostics=()):
        super().__init__(pypto_text(message, diagnostics))
        self.diagnostics = list(diagnostics)


class NodeRefusedError(TypeError):
    """The pass built a node pypto's constructor refuses: a TypeError with pypto's text, as pypto's own
    pass raises it there; `diagnostics` as for PassError."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)


class InternalError(RuntimeError):
    """A broken invariant in a pass, or a plugin that failed; `diagnostics` as for PassError. On a pypto
    Program it is also a pypto.InternalError, as pypto raises its own."""

    def __init__(self, message, diagnostics=()):
        super().__init__(pypto_text(message, diagnostics))
        self.diagnostics = list(diagnostics)


class FileError(ValueError):
    """Bytes that are not pypto IR, or a plugin that cannot be loaded; the message says where."""
