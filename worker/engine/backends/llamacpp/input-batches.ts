/**
 * How an encoder's embedding inputs go into batches (native/embed.cpp's ip_embed_batch): in
 * order, each batch as many consecutive inputs as fit `most` tokens together and `seqs` inputs,
 * so one decode reads the weights once for all of them. Every length is at most `most` (the
 * caller refuses longer inputs first).
 */

/** The most inputs one batch holds (the embedding context's sequences). */
export const EMBED_SEQS = 16;

/** The inputs' indexes, batch by batch. */
export function inputBatches(lengths: readonly number[], most: number, seqs = EMBED_SEQS): number[][] {
  const batches: number[][] = [];
  let batch: number[] = [];
  let tokens = 0;
  lengths.forEach((length, index) => {
    if (batch.length > 0 && (batch.length === seqs || tokens + length > most)) {
      batches.push(batch);
      batch = [];
      tokens = 0;
    }
    batch.push(index);
    tokens += length;
  });
  if (batch.length > 0) batches.push(batch);
  return batches;
}
