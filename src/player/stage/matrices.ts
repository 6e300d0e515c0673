// The camera's matrices, column-major as GLSL reads them: the projection, the view's rotation,
// the model-view, and the camera's place in the graph's own units (the backward layer rises towards it).

import type { Mat4 } from "./gl";

export function perspective(fovDegrees: number, aspect: number, near: number, far: number): Mat4 {
  const f = 1 / Math.tan((fovDegrees * Math.PI) / 360);
  const range = 1 / (near - far);
  return new Float32Array([
    f / aspect,
    0,
    0,
    0,
    0,
    f,
    0,
    0,
    0,
    0,
    (far + near) * range,
    -1,
    0,
    0,
    2 * far * near * range,
    0,
  ]);
}

/** Rotation by `pitch` about x, then `yaw` about y (R = Ry·Rx), as a 3×3 in column-major order. */
export function rotation(pitch: number, yaw: number): Float32Array {
  const [cx, sx, cy, sy] = [Math.cos(pitch), Math.sin(pitch), Math.cos(yaw), Math.sin(yaw)];
  return new Float32Array([cy, 0, -sy, sx * sy, cx, sx * cy, cx * sy, -sx, cx * cy]);
}

/**
 * The model-view matrix of the graph: turned by `r` (rotation()) about the point `pivot`, seen by a
 * camera at `eye` looking straight down -z (its view is a translation by -eye).
 */
export function modelView(r: Float32Array, pivot: readonly number[], eye: readonly number[]): Mat4 {
  const [px, py, pz] = pivot as [number, number, number];
  const m = new Float32Array(16);
  for (let c = 0; c < 3; c++) for (let row = 0; row < 3; row++) m[c * 4 + row] = r[c * 3 + row]!;
  // translation: pivot - R·pivot - eye
  for (let row = 0; row < 3; row++) {
    const turned = r[row]! * px + r[3 + row]! * py + r[6 + row]! * pz;
    m[12 + row] = (pivot[row] as number) - turned - (eye[row] as number);
  }
  m[15] = 1;
  return m;
}

/** Where the camera at `eye` is in the graph's own units, the graph turned by `r` about `pivot`. */
export function eyeInGraph(
  r: Float32Array,
  pivot: readonly number[],
  eye: readonly number[],
): [number, number, number] {
  const d = [0, 1, 2].map((i) => (eye[i] as number) - (pivot[i] as number));
  // the inverse of a rotation is its transpose: column i of r dotted with d
  return [0, 1, 2].map(
    (i) => (pivot[i] as number) + r[i * 3]! * d[0]! + r[i * 3 + 1]! * d[1]! + r[i * 3 + 2]! * d[2]!,
  ) as [number, number, number];
}
