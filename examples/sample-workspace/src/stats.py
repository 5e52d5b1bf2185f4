def mean(values):
    # FIXME: an empty list divides by zero
    return sum(values) / len(values)


class Summary:
    def __init__(self, values):
        self.values = values

    def describe(self):
        return f"{len(self.values)} values, mean {mean(self.values)}"
