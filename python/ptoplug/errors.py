"""The exceptions of ptoplug, as pypto raises them: user errors are ValueErrors, bugs RuntimeErrors."""


class PassError(ValueError):
    """A pass or verifier rejected the program. str() is the first error's message (pypto's text);
    `diagnostics` lists every diagnostic as a dict (severity, rule, message, file, line, column)."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)


class InternalError(RuntimeError):
    """A broken invariant in a pass, or a plugin that failed; `diagnostics` as for PassError."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)


class FileError(ValueError):
    """Bytes that are not pypto IR, or a plugin that cannot be loaded; the message says where."""
