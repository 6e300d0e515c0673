// The one error type of tinydag (mirror of src/tinydag/errors.py): a code a program can switch on,
// a message a learner can read. The English text is identical to Python's, byte for byte.
import type { ErrorCode, ErrorPayload, ErrorResult, NodeId } from "./types";

export const MAX_CHARS = 200; // longer input would not fit on a screen anyway
export const MAX_NODES = 40; // more visual nodes than this make the graph unreadable

export const CODES: readonly ErrorCode[] = [
  "syntax",
  "unknown-function",
  "variable-exponent",
  "domain",
  "overflow",
  "too-large",
];

export class TinyDagError extends Error {
  constructor(
    readonly code: ErrorCode, // one of CODES
    message: string, // English text for a learner; the player localizes by code and params
    readonly start: number | null = null, // span in the expression (code points) of the offending text
    readonly end: number | null = null,
    readonly node: NodeId | null = null, // id of the offending visual node, for numeric errors
    readonly params: Record<string, string> = {}, // values the localized message needs
  ) {
    super(message);
    this.name = "TinyDagError";
  }

  // Python's to_json(): same keys, same order, so both sides print the same bytes.
  toJSON(): ErrorResult {
    const error: ErrorPayload = { code: this.code, message: this.message, params: { ...this.params } };
    if (this.start !== null) {
      error.start = this.start;
      error.end = this.end ?? undefined;
    }
    if (this.node !== null) error.node = this.node;
    return { error };
  }
}
