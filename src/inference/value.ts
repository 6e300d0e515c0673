// The Value class of src/microgpt_annotated.py (sections autograd-value-class and -rest), mirrored one to one:
// same fields, same formulas in the same order, so both languages compute the same bits.
// TypeScript has no operator overloading, so `a + b` is a.add(b) and `2 - a` is a.rsub(2).

export class Value {
  data: number; // the number this node holds
  grad = 0; // d(output)/d(self), by backward()
  readonly _children: readonly Value[]; // its input Values, in order
  readonly _local_grads: readonly number[]; // d(self)/d(child), one per child

  constructor(data: number, _children: readonly Value[] = [], _local_grads: readonly number[] = []) {
    this.data = data;
    this._children = _children;
    this._local_grads = _local_grads;
  }

  // Primitive operations: a forward value plus the local derivative per child.
  add(other: number | Value): Value {
    const o = other instanceof Value ? other : new Value(other);
    return new Value(this.data + o.data, [this, o], [1, 1]);
  }

  mul(other: number | Value): Value {
    const o = other instanceof Value ? other : new Value(other);
    return new Value(this.data * o.data, [this, o], [o.data, this.data]); // swapped: d(xy)/dx = y
  }

  pow(k: number): Value {
    // k is a plain number, so it gets no gradient
    const data = power(this.data, k); // x ** k, the same bits in every language
    const local = k !== 0 ? k * power(this.data, k - 1) : 0; // x**0 is flat
    return new Value(data, [this], [local]);
  }

  exp(): Value {
    const e = Math.exp(this.data);
    return new Value(e, [this], [e]);
  }

  log(): Value {
    return new Value(Math.log(this.data), [this], [1 / this.data]);
  }

  relu(): Value {
    return new Value(Math.max(0, this.data), [this], [this.data > 0 ? 1 : 0]);
  }

  backward(): Value[] {
    const topo: Value[] = [];
    const visited = new Set<Value>();
    const build = (v: Value): void => {
      // at most 79 calls deep within the 40-node limit
      if (!visited.has(v)) {
        visited.add(v);
        for (const child of v._children) build(child);
        topo.push(v); // after all its children
      }
    };
    build(this);
    this.grad = 1;
    for (let k = topo.length - 1; k >= 0; k--) {
      // parents before children
      const v = topo[k]!;
      for (let i = 0; i < v._children.length; i++) {
        v._children[i]!.grad += v._local_grads[i]! * v.grad; // the chain rule
      }
    }
    return topo; // the order it walked: the animation replays it
  }

  // Derived operations: made of the primitives, so they need no derivative.
  neg(): Value {
    return this.mul(-1);
  }

  sub(other: number | Value): Value {
    // Python: self + (-other); a plain number is negated as a number
    return this.add(other instanceof Value ? other.neg() : -other);
  }

  div(other: number | Value): Value {
    // Python: self * other**-1
    return this.mul(other instanceof Value ? other.pow(-1) : other ** -1);
  }

  // Reflected forms (number on the left), in the child order Python's __r*__ methods produce.
  radd(other: number): Value {
    return this.add(other);
  }

  rmul(other: number): Value {
    return this.mul(other);
  }

  rsub(other: number): Value {
    // other + (-self) ends in (-self).__radd__(other): children (-self, other)
    return this.neg().add(other);
  }

  rdiv(other: number): Value {
    // __rtruediv__: other * self**-1 ends in (self**-1).__rmul__(other)
    return this.pow(-1).mul(other);
  }
}

/** Python's power(): whole and half exponents by *, / and sqrt only (IEEE 754: the same bits everywhere). */
export function power(x: number, k: number): number {
  if (Number.isInteger(2 * k) && Math.abs(k) <= 16) {
    let result = k % 1 !== 0 ? Math.sqrt(x) : 1; // the half, if any
    for (let i = 0; i < Math.trunc(Math.abs(k)); i++) result *= x;
    return k < 0 ? 1 / result : result;
  }
  return x ** k; // any other exponent: the platform's pow
}
