// A request body that counts how often the server asked for more: a refusal made from the
// declared length alone reads at most the first piece.

export interface CountedBody {
  body: ReadableStream<Uint8Array>;
  /** How many pieces the reader has asked for so far. */
  pulled(): number;
}

/** Pieces of `pieceBytes` zero bytes, `pieces` of them (endless by default). */
export function countedBody(pieceBytes: number, pieces = Number.POSITIVE_INFINITY): CountedBody {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(pieceBytes));
      if (pulled >= pieces) controller.close();
    },
  });
  return { body, pulled: () => pulled };
}
