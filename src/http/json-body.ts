/**
 * JSON text of one wire object, made once (selectFieldsJson keeps it with the row it shows) and
 * placed as it is into the responses, stream lines and deliveries that show it, as text or as
 * UTF-8 bytes, each encoded once. JSON.stringify still works on it (as the object it stands for),
 * for the few places that need an object.
 */
export class RawJson {
  private encoded: Buffer | undefined;

  constructor(readonly text: string) {}

  get bytes(): Buffer {
    return (this.encoded ??= Buffer.from(this.text));
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
 * A body as UTF-8 bytes, each item's encoded once and kept: what responses send and streams write
 * to many connections. (Sent as one text instead, a 150 KB lookup answered six times slower: the
 * text is flattened and encoded again on every response.)
 */
export function jsonBody(body: JsonBodyParts): Buffer {
  const parts = pieces(body);
  let length = 0;
  for (const piece of parts) length += typeof piece === 'string' ? piece.length : piece.text.length;
  // A small body is encoded once as one text: cheaper than gathering a few tiny buffers.
  if (length <= SMALL_BODY) {
    let text = '';
    for (const piece of parts) text += typeof piece === 'string' ? piece : piece.text;
    return Buffer.from(text);
  }
  return Buffer.concat(parts.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece.bytes)));
}

/** Characters up to which a body is encoded as one text rather than gathered from kept bytes. */
const SMALL_BODY = 4096;
