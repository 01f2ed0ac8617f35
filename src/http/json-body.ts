/**
 * JSON text of one wire object, made once (selectFieldsJson) and placed as it is into the
 * responses, stream lines and deliveries that show it, as text or as UTF-8 bytes, each encoded
 * once. JSON.stringify still works on it (as the object it stands for),
 * for the few places that need an object.
 */
export class RawJson {
  private encoded: Buffer | undefined;

  private constructor(readonly text: string) {}

  static of(text: string): RawJson {
    return new RawJson(text);
  }

  get bytes(): Buffer {
    return (this.encoded ??= Buffer.from(this.text));
  }

  /** Its length in characters (UTF-16 code units). */
  get length(): number {
    return this.text.length;
  }

  /** Its length in UTF-8. */
  get byteLength(): number {
    return this.bytes.length;
  }

  /** Writes its UTF-8 bytes into `target` at `offset`; answers the offset after them. */
  writeInto(target: Buffer, offset: number): number {
    const bytes = this.bytes;
    target.set(bytes, offset);
    return offset + bytes.length;
  }

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** An item of `data` or of an `includes` list: a plain object, or already JSON text. */
export type WireItem = RawJson | Record<string, unknown>;

type Piece = string | RawJson;

/**
 * The pieces of a response body `{data, includes, errors, meta}`: the envelope written here, its
 * items placed as they are. Members whose value is undefined are left out, as JSON.stringify does.
 */
function pieces(body: JsonBodyParts): Piece[] {
  const parts: Piece[] = [];
  const item = (value: unknown) => parts.push(value instanceof RawJson ? value : JSON.stringify(value));
  const list = (items: readonly unknown[]) => {
    parts.push('[');
    items.forEach((value, i) => {
      if (i > 0) parts.push(',');
      item(value);
    });
    parts.push(']');
  };
  let first = true;
  const member = (name: string) => {
    parts.push(`${first ? '{' : ','}"${name}":`);
    first = false;
  };
  if (body.data !== undefined) {
    member('data');
    if (Array.isArray(body.data)) list(body.data);
    else item(body.data);
  }
  if (body.includes !== undefined) {
    member('includes');
    let firstKind = true;
    for (const [kind, items] of Object.entries(body.includes)) {
      if (items === undefined) continue;
      parts.push(`${firstKind ? '{' : ','}${JSON.stringify(kind)}:`);
      firstKind = false;
      list(items);
    }
    parts.push(firstKind ? '{}' : '}');
  }
  if (body.errors !== undefined) {
    member('errors');
    parts.push(JSON.stringify(body.errors));
  }
  if (body.meta !== undefined) {
    member('meta');
    parts.push(JSON.stringify(body.meta));
  }
  parts.push(first ? '{}' : '}');
  return parts;
}

export interface JsonBodyParts {
  data?: WireItem | WireItem[];
  includes?: Record<string, WireItem[] | undefined>;
  errors?: unknown[];
  meta?: unknown;
}

/** A body as text, for what needs it parsed or as part of a line (compliance stream lines, filtered-stream webhook bodies). */
export function jsonText(body: JsonBodyParts): string {
  let text = '';
  for (const piece of pieces(body)) text += typeof piece === 'string' ? piece : piece.text;
  return text;
}

/**
 * A response body: past a few kilobytes, UTF-8 bytes, each item's encoded once and kept (sent as
 * one text instead, a 150 KB lookup answered six times slower: the text is flattened and encoded
 * again on every response). A small body stays text: Node then writes the head and the body in one
 * write, where a buffer goes out through a corked writev of the two, and the text is encoded once
 * there instead of once here and again for the head.
 */
export function jsonBody(body: JsonBodyParts): Buffer | string {
  const parts = pieces(body);
  let length = 0;
  for (const piece of parts) length += piece.length;
  if (length <= SMALL_BODY) {
    let text = '';
    for (const piece of parts) text += typeof piece === 'string' ? piece : piece.text;
    return text;
  }
  // One buffer, each piece written into it: kept items as their bytes, the envelope's text as is.
  // Most envelope pieces are one ASCII character (the commas between items, brackets), stored as
  // their byte: a Buffer.write per comma had cost a 100-item answer a third of its body's making.
  let bytes = 0;
  for (const piece of parts) bytes += typeof piece !== 'string' ? piece.byteLength : asciiByte(piece) >= 0 ? 1 : Buffer.byteLength(piece);
  const out = Buffer.allocUnsafe(bytes);
  let offset = 0;
  for (const piece of parts) {
    if (typeof piece !== 'string') offset = piece.writeInto(out, offset);
    else {
      const byte = asciiByte(piece);
      if (byte >= 0) out[offset++] = byte;
      else offset += out.write(piece, offset, 'utf8');
    }
  }
  return out;
}

/** The byte of a one-character ASCII text; -1 for any other text. */
function asciiByte(text: string): number {
  if (text.length !== 1) return -1;
  const code = text.charCodeAt(0);
  return code < 0x80 ? code : -1;
}

/** Characters up to which a body is encoded as one text rather than gathered from kept bytes. */
const SMALL_BODY = 4096;
