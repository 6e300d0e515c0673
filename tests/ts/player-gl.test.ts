// The scene's matrices (gl.ts) against values worked out by hand: a camera looking down -z at a graph
// turned about a pivot.
import assert from "node:assert/strict";
import { test } from "node:test";
import { eyeInGraph, modelView, perspective, rotation } from "../../src/player/stage/matrices";

const close = (actual: ArrayLike<number>, expected: number[], tolerance = 1e-6): void => {
  assert.equal(actual.length, expected.length);
  for (let i = 0; i < expected.length; i++)
    assert.ok(Math.abs(actual[i]! - expected[i]!) <= tolerance, `[${i}] ${actual[i]} != ${expected[i]}`);
};

/** Apply a column-major 4×4 to a point. */
const apply = (m: Float32Array, [x, y, z]: number[]): number[] =>
  [0, 1, 2].map((r) => m[r]! * x! + m[4 + r]! * y! + m[8 + r]! * z! + m[12 + r]!);

test("no turn: the model-view only moves the graph in front of the camera", () => {
  const m = modelView(rotation(0, 0), [3, 1, 0], [3, 1, 10]);
  close(apply(m, [3, 1, 0]), [0, 0, -10]); // the pivot is straight ahead
  close(apply(m, [4, 3, 2]), [1, 2, -8]);
});

test("a yaw of 90° turns +x into -z about the pivot; a pitch of 90° turns +y into +z", () => {
  const yaw = modelView(rotation(0, Math.PI / 2), [0, 0, 0], [0, 0, 10]);
  close(apply(yaw, [1, 0, 0]), [0, 0, -11]);
  const pitch = modelView(rotation(Math.PI / 2, 0), [2, 0, 0], [2, 0, 10]);
  close(apply(pitch, [2, 1, 0]), [0, 0, -9]);
});

test("yaw is applied after pitch (R = Ry·Rx), as the view's drag expects", () => {
  const r = rotation(Math.PI / 2, Math.PI / 2);
  const m = modelView(r, [0, 0, 0], [0, 0, 0]);
  // Rx(90°) takes +y to +z; Ry(90°) then takes +z to +x.
  close(apply(m, [0, 1, 0]), [1, 0, 0]);
});

test("the eye in the graph's units: turning the graph back puts it where the camera is", () => {
  const r = rotation(0.3, -0.4);
  const pivot = [1.5, -2, 0];
  const eye = eyeInGraph(r, pivot, [1.5, -2.5, 12]);
  close(apply(modelView(r, pivot, [1.5, -2.5, 12]), eye), [0, 0, 0], 1e-5);
});

test("perspective: a point at the edge of the vertical field of view lands at clip y = w", () => {
  const fov = 22;
  const p = perspective(fov, 2, 1, 100);
  const z = -10;
  const y = Math.tan((fov * Math.PI) / 360) * 10;
  const clipY = p[5]! * y;
  const clipW = p[11]! * z;
  close([clipY / clipW], [1]);
  close([(p[10]! * -1 + p[14]!) / (p[11]! * -1)], [-1]); // the near plane maps to depth -1
});
