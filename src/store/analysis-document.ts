/**
 * How an analysis stores its check results: the JSON text, brotli-compressed, once (a report reads those of the
 * analysis it shows; migration 022). A results document is about 20 KB of JSON whose keys, messages and evidence
 * markup repeat heavily, so it shrinks to a fraction; one decompression costs well under a millisecond, paid per
 * report shown or listed and per analysis read from history.
 *
 * Stores pack off the main thread (`packResultsOffThread`: libuv's thread pool) before they open the transaction
 * that adds the history row, so the event loop goes on serving while the results are compressed; migrations,
 * which rewrite rows in a loop of their own, pack in place (`packResults`).
 */
import { brotliCompress, brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";

/**
 * Quality 6 of 11. Measured on corpus results documents (median 19 KB): quality 6 packs to 3.3 KB in 0.4 ms;
 * 9 gains nothing (3.3 KB) for 7 ms; 11 saves another 10 % (3.0 KB) for 20 ms, which every store and re-run
 * would pay; deflate at level 9 gives 3.5 KB.
 */
const quality = 6;

/**
 * A 256 KB window (2^18) instead of brotli's default 4 MB (2^22). Results documents run from a few KB to about
 * 80 KB, so every byte of one stays inside the window and the output is the same (measured on 100 corpus
 * documents: identical total size); the encoder's tables shrink with the window, so each compression allocates
 * and clears a fraction of the memory (on the thread pool's threads, where glibc keeps what it freed) and takes
 * about a third less time.
 */
const windowBits = 18;

function optionsFor(text: Buffer) {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: text.length,
      [constants.BROTLI_PARAM_LGWIN]: windowBits,
    },
  };
}

/** The results' JSON text packed for a history row, on the calling thread. */
export function packResults(json: string): Buffer {
  const text = Buffer.from(json);
  return brotliCompressSync(text, optionsFor(text));
}

/** The same bytes as `packResults`, compressed on libuv's thread pool while the event loop goes on. */
export function packResultsOffThread(json: string): Promise<Buffer> {
  const text = Buffer.from(json);
  return new Promise((resolve, reject) => {
    brotliCompress(text, optionsFor(text), (error, packed) => (error ? reject(error) : resolve(packed)));
  });
}

/** The JSON text of packed results, as UTF-8 bytes ready to splice into a response. */
export function unpackResults(packed: Uint8Array): Buffer {
  return brotliDecompressSync(packed);
}
