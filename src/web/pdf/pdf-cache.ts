/**
 * Recently printed PDFs, keyed by a digest of the exact document printed (HTML, header, footer, margins). The
 * same document always prints the same PDF, so a report downloaded again before its next analysis costs no
 * Chromium time, and requests for one document that arrive together share one print. Content-keyed, so an
 * entry can only be served to someone who built the identical document, i.e. who may see the report anyway.
 * Bounded by bytes, least recently used first out.
 */
import { createHash } from "node:crypto";

export class PdfCache {
  /** Map order is use order: the first entry is the least recently used. */
  private readonly entries = new Map<string, Buffer>();
  private readonly printing = new Map<string, Promise<Buffer>>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    /** A larger PDF is not kept (it would push out many others). */
    private readonly maxEntryBytes = maxBytes / 4,
  ) {}

  static keyOf(document: unknown): string {
    return createHash("sha256").update(JSON.stringify(document)).digest("base64url");
  }

  /** The kept PDF, or the one being printed for the same key, or a new print. */
  async get(key: string, print: () => Promise<Buffer>): Promise<Buffer> {
    const kept = this.entries.get(key);
    if (kept) {
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    const running = this.printing.get(key);
    if (running) return running;
    const printed = print();
    this.printing.set(key, printed);
    try {
      const pdf = await printed;
      this.keep(key, pdf);
      return pdf;
    } finally {
      this.printing.delete(key);
    }
  }

  private keep(key: string, pdf: Buffer): void {
    if (pdf.length > this.maxEntryBytes || this.entries.has(key)) return;
    this.entries.set(key, pdf);
    this.bytes += pdf.length;
    for (const [oldest, buffer] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= buffer.length;
    }
  }
}
