/**
 * Branding: the name and logo a user (or, once teams exist, a team) shows instead of pagegrade's on its crawls'
 * audit pages and on both kinds of PDF. The rules: `brand_name` at most 100 characters of one line (no control
 * characters, so it can never break a header), `brand_logo` a PNG or a JPEG of at most 200 KB, known by its first
 * bytes whatever it is called or claims to be (an SVG, HTML or anything else is refused with a 422).
 */
import { ValidationFailed } from "../errors.js";
import { timestamp } from "../timestamps.js";
import type { BrandingRow, BrandingStore, BrandOwner } from "./branding-store.js";

export const maxBrandName = 100;
export const maxLogoBytes = 200 * 1024;

/** What a page or a PDF shows as its brand. */
export interface Brand {
  name: string;
  /** The logo as a data: URL (pages and PDFs load nothing from elsewhere), or null. */
  logoUrl: string | null;
}

export const pagegradeBrand: Brand = { name: "pagegrade", logoUrl: null };

export interface BrandingInput {
  brand_name?: string;
  brand_logo?: Buffer;
}

export class Brandings {
  constructor(private readonly store: BrandingStore) {}

  find(owner: BrandOwner): Promise<BrandingRow | undefined> {
    return this.store.find(owner);
  }

  /** Sets the owner's name and logo (each kept as it was when not given). */
  async save(owner: BrandOwner, input: BrandingInput): Promise<BrandingRow> {
    if (input.brand_name === undefined && input.brand_logo === undefined) {
      throw ValidationFailed.of("brand_name", "Give a brand_name, a brand_logo or both.");
    }
    const name = input.brand_name === undefined ? undefined : brandName(input.brand_name);
    const logo = input.brand_logo === undefined ? undefined : logoOf(input.brand_logo);
    const existing = await this.store.find(owner);
    return this.store.save(owner, {
      brand_name: name === undefined ? (existing?.brand_name ?? null) : name,
      logo: logo === undefined ? (existing?.logo ?? null) : logo.bytes,
      logo_type: logo === undefined ? (existing?.logo_type ?? null) : logo.type,
      updated_at: timestamp(),
    });
  }

  delete(owner: BrandOwner): Promise<boolean> {
    return this.store.delete(owner);
  }

  /** What the owner's pages and PDFs show: its name and logo, pagegrade's name where it set none. */
  async brandOf(owner: BrandOwner): Promise<Brand> {
    const row = await this.store.find(owner);
    if (!row) return pagegradeBrand;
    return {
      name: row.brand_name ?? pagegradeBrand.name,
      logoUrl:
        row.logo && row.logo_type
          ? `data:${row.logo_type};base64,${Buffer.from(row.logo).toString("base64")}`
          : null,
    };
  }
}

/** The name trimmed; an empty name clears it (null). */
function brandName(raw: string): string | null {
  const name = raw.trim();
  if ([...name].length > maxBrandName)
    throw ValidationFailed.of(
      "brand_name",
      `The brand name must not be greater than ${maxBrandName} characters.`,
    );
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f\u2028\u2029]/.test(name))
    throw ValidationFailed.of("brand_name", "The brand name must be one line without control characters.");
  return name === "" ? null : name;
}

/** The logo's bytes and type, known by its signature: PNG or JPEG only. */
function logoOf(bytes: Buffer): { bytes: Buffer; type: "image/png" | "image/jpeg" } {
  if (bytes.length > maxLogoBytes)
    throw ValidationFailed.of(
      "brand_logo",
      `The brand logo must not be greater than ${maxLogoBytes / 1024} KB.`,
    );
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length > png.length && bytes.subarray(0, png.length).equals(png))
    return { bytes, type: "image/png" };
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return { bytes, type: "image/jpeg" };
  throw ValidationFailed.of(
    "brand_logo",
    "The brand logo must be a PNG or a JPEG image (SVG is not accepted).",
  );
}
