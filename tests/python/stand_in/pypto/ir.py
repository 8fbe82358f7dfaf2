"""pypto.ir, standing in: a Program is its MessagePack bytes; the test can see what was deserialized."""

deserialized = []  # every bytes object deserialize() was given


class Program:
    def __init__(self, data):
        self.data = bytes(data)


def serialize(node):
    return node.data


def deserialize(data):
    deserialized.append(bytes(data))
    return Program(data)
