// How numbers appear on cards, labels and in narration: compact, at most 4 significant digits.

const MINUS = "\u2212"; // the typographic minus the lesson text uses

/** 10 -> "10", -1 -> "−1", 1/3 -> "0.3333", 123456 -> "1.235e5", -0 -> "0". */
export function formatNumber(x: number): string {
  return formatSignificant(x, 4); // one argument: safe to pass to Array.map
}

/** formatNumber with `digits` significant digits. */
function formatSignificant(x: number, digits: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "∞" : `${MINUS}∞`;
  if (x === 0) return "0"; // also -0
  const magnitude = Number(Math.abs(x).toPrecision(digits)); // round first: 9999.6 is 1e4
  let text: string;
  if (magnitude >= 1e4 || magnitude < 1e-3) {
    const [mantissa = "0", exponent = "0"] = magnitude.toExponential(digits - 1).split("e");
    text = `${stripZeros(mantissa)}e${Number(exponent)}`;
  } else {
    text = stripZeros(magnitude.toPrecision(digits));
  }
  if (text === "0") return "0"; // rounded away: never show "−0"
  return x < 0 ? MINUS + text : text;
}

function stripZeros(fixed: string): string {
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

/** Reads what formatNumber wrote (and plain ASCII input): "−1" -> -1. */
export function parseNumber(text: string): number {
  const normalized = text.trim().replace(/\u2212/g, "-").replace(",", ".");
  if (normalized === "" || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(normalized)) return NaN;
  return Number(normalized);
}

/**
 * "incoming × local = contribution" whose shown factors multiply to the shown contribution: at 4
 * significant digits when they do, with a fifth digit on the factors when that is enough, and
 * otherwise at 4 digits with "≈" (0.1488 × 2.718 = 0.4044, not the 0.4046 backward() added).
 */
export function productText(incoming: number, local: number, contribution: number): string {
  const shown = formatNumber(contribution);
  for (const digits of [4, 5]) {
    const a = formatSignificant(incoming, digits);
    const b = formatSignificant(local, digits);
    if (formatNumber(parseNumber(a) * parseNumber(b)) === shown) return `${a} × ${b} = ${shown}`;
  }
  return `${formatNumber(incoming)} × ${formatNumber(local)} ≈ ${shown}`;
}
