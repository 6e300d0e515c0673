"""microgpt, annotated: the pieces of a tiny GPT, one lesson at a time.

Lesson 02 shows the section ``autograd-value-class``: a scalar that remembers
how it was computed, so that ``backward()`` can send gradients back through it.
The rest of the class, ``autograd-value-rest``, is folded below it. The build
computes every animation of the lesson with this very class.
"""

import math


# --8<-- [start:autograd-value-class]
class Value:  # a number that remembers how it was computed
    def __init__(self, data, _children=(), _local_grads=()):
        self.data = float(data)           # the number it holds
        self.grad = 0.0                   # d(output)/d(self), by backward()
        self._children = _children        # its input Values, in order
        self._local_grads = _local_grads  # d(self)/d(child), one per child

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), (1.0, 1.0))

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other),
                     (other.data, self.data))  # swapped: d(xy)/dx = y

    def __pow__(self, k):  # k is a plain number, so it gets no gradient
        data = power(self.data, k)  # x ** k, the same bits in every language
        local = k * power(self.data, k - 1) if k != 0 else 0.0  # x**0 is flat
        return Value(data, (self,), (local,))

    def exp(self):
        e = math.exp(self.data)
        return Value(e, (self,), (e,))

    def log(self):
        return Value(math.log(self.data), (self,), (1.0 / self.data,))

    def relu(self):
        return Value(max(0.0, self.data), (self,), (float(self.data > 0),))

    def backward(self):
        topo, visited = [], set()
        def build(v):  # at most 79 calls deep within the 40-node limit
            if v not in visited:
                visited.add(v)
                for child in v._children:
                    build(child)
                topo.append(v)  # after all its children
        build(self)
        self.grad = 1.0
        for v in reversed(topo):  # parents before children
            for child, local_grad in zip(v._children, v._local_grads):
                child.grad += local_grad * v.grad  # the chain rule
        return topo  # the order it walked: the animation replays it
    # --8<-- [end:autograd-value-class]
    # --8<-- [start:autograd-value-rest]

    # Derived operations: made of the primitives, so they need no derivative.
    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __truediv__(self, other):
        return self * other**-1

    # Reflected operations: a plain number on the left, as in 2 - a.
    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def __rsub__(self, other):
        return other + (-self)

    def __rtruediv__(self, other):
        return other * self**-1


def power(x, k):
    """x ** k. Whole and half exponents (2, -1, 0.5, 1.5) use only *, / and
    sqrt, which IEEE 754 rounds alike in every language: the browser's Value
    gets the same bits."""
    if float(2 * k).is_integer() and abs(k) <= 16:
        result = math.sqrt(x) if k % 1 else 1.0  # the half, if any
        for _ in range(int(abs(k))):
            result *= x
        return 1.0 / result if k < 0 else result
    return x**k  # any other exponent: the platform's pow
# --8<-- [end:autograd-value-rest]
