"""microgpt, annotated: the pieces of a tiny GPT, one lesson at a time.

Lesson 02 shows the section ``autograd-value-class``: a scalar that remembers
how it was computed, so that ``backward()`` can send gradients back through it.
The build computes every animation of the lesson with this very class.
"""

import math


# --8<-- [start:autograd-value-class]
def power(x, k):
    """x ** k. Whole and half exponents (2, 3, -1, 0.5, 1.5) use only *, / and sqrt, which IEEE 754
    rounds the same in every language, so the browser's copy of this class gets the same bits."""
    if float(2 * k).is_integer() and abs(k) <= 16:
        result = math.sqrt(x) if k % 1 else 1.0  # the half, if any
        for _ in range(int(abs(k))):
            result *= x
        return 1.0 / result if k < 0 else result
    return x**k  # any other exponent: the platform's pow


class Value:
    """A scalar plus the record of how it was made."""

    def __init__(self, data, _children=(), _local_grads=()):
        self.data = float(data)           # the number this node holds
        self.grad = 0.0                   # d(output)/d(this node), filled in by backward()
        self._children = _children        # the Values this one was computed from, in order
        self._local_grads = _local_grads  # d(self)/d(child) for each child, same order

    # Primitive operations: a forward value plus the local derivative per child.
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), (1.0, 1.0))

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), (other.data, self.data))

    def __pow__(self, other):  # the exponent is a plain number, never a Value
        assert isinstance(other, (int, float)), "only numeric exponents"
        data = power(self.data, other)  # self.data**other, the same bits in every language
        local = other * power(self.data, other - 1) if other != 0 else 0.0  # x**0 is flat, even at 0
        return Value(data, (self,), (local,))

    def exp(self):
        e = math.exp(self.data)
        return Value(e, (self,), (e,))

    def log(self):
        return Value(math.log(self.data), (self,), (1.0 / self.data,))

    def relu(self):
        return Value(max(0.0, self.data), (self,), (float(self.data > 0),))

    # Derived operations: built from the primitives, so they need no derivative of their own.
    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __truediv__(self, other):
        return self * other**-1

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def __rsub__(self, other):
        return other + (-self)

    def __rtruediv__(self, other):
        return other * self**-1

    def topological_order(self):
        """Every node of the graph, each one after the nodes it was computed from."""
        topo, visited, stack = [], set(), [(self, False)]
        while stack:  # depth-first, with an explicit stack so deep graphs need no recursion
            v, children_done = stack.pop()
            if children_done:
                topo.append(v)
            elif v not in visited:  # Values compare and hash by identity
                visited.add(v)
                stack.append((v, True))
                stack.extend([(child, False) for child in reversed(v._children)])
        return topo

    def backward(self):
        self.grad = 1.0  # d(self)/d(self)
        for v in reversed(self.topological_order()):  # parents before children
            for child, local_grad in zip(v._children, v._local_grads):
                child.grad += local_grad * v.grad  # the chain rule, one edge at a time
# --8<-- [end:autograd-value-class]
