"""pypto.pypto_core.passes, standing in: records what create_program_pass was given."""
import enum


class IRProperty(enum.Enum):
    CommDomainScopesMaterialized = 1
    DistTensorCtxMaterialized = 2
    ReturnParamsExplicit = 3
    SSAForm = 4


class IRPropertySet:
    def __init__(self):
        self.items = set()

    def insert(self, prop):
        if not isinstance(prop, IRProperty):
            raise TypeError("an IRProperty")
        self.items.add(prop)


class PassProperties:
    def __init__(self, required, produced, invalidated):
        self.required, self.produced, self.invalidated = required, produced, invalidated


class ProgramPass:
    def __init__(self, transform, name, properties):
        self.transform, self.name, self.properties = transform, name, properties

    def __call__(self, program):
        return self.transform(program)


def create_program_pass(transform, name="", properties=None):
    return ProgramPass(transform, name, properties or PassProperties(IRPropertySet(), IRPropertySet(), IRPropertySet()))
