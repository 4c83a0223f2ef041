/**
 * How a crawl page stores its text's fingerprint (migration 026) in `crawl_pages.text_fingerprint`: the SHA-256
 * (32 bytes) followed by the 64 minhashes (unsigned 32-bit, big-endian): 288 bytes of binary, where the hex hash
 * and the minhashes' JSON text took about 570 characters. The site checks read the same hash and numbers; the
 * crawls write it and migration 026 converted the rows stored before.
 */
/** A text's fingerprint as the site checks compute it (analysis/site-checks/text-fingerprint.ts). */
export interface StoredFingerprint {
  /** SHA-256 of the text, 64 lower-case hex digits. */
  hash: string;
  /** Unsigned 32-bit minhashes. */
  minhash: number[];
}

const hashBytes = 32;

/** The fingerprint packed for `crawl_pages.text_fingerprint`. */
export function packFingerprint(text: StoredFingerprint): Buffer {
  if (!/^[0-9a-f]{64}$/.test(text.hash)) {
    throw new Error(`a text hash must be 64 lower-case hex digits (SHA-256), not "${text.hash}"`);
  }
  const packed = Buffer.alloc(hashBytes + text.minhash.length * 4);
  packed.write(text.hash, 0, "hex");
  text.minhash.forEach((value, index) => {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
      throw new Error(`a minhash must be an unsigned 32-bit integer, not ${value}`);
    }
    packed.writeUInt32BE(value, hashBytes + index * 4);
  });
  return packed;
}

/** The fingerprint from its packed bytes. */
export function unpackFingerprint(packed: Uint8Array): StoredFingerprint {
  if (packed.length < hashBytes || (packed.length - hashBytes) % 4 !== 0) {
    throw new Error(`a packed text fingerprint is 32 bytes and 4 a minhash, not ${packed.length} in all`);
  }
  const bytes = Buffer.from(packed.buffer, packed.byteOffset, packed.length);
  return {
    hash: bytes.toString("hex", 0, hashBytes),
    minhash: Array.from({ length: (packed.length - hashBytes) / 4 }, (_, index) =>
      bytes.readUInt32BE(hashBytes + index * 4),
    ),
  };
}
