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

const bytesOf = (item: unknown): Buffer => (item instanceof RawJson ? item.bytes : Buffer.from(JSON.stringify(item)));
const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * The bytes of a response body `{data, includes, errors, meta}`: the envelope is written here, its
 * items placed as they are, and the whole copied once. Members whose value is undefined are left
 * out, as JSON.stringify does.
 */
export function jsonBody(body: { data?: WireItem | WireItem[]; includes?: Record<string, WireItem[] | undefined>; errors?: unknown[]; meta?: unknown }): Buffer {
  const parts: Buffer[] = [];
  const put = (text: string) => parts.push(Buffer.from(text));
  const list = (items: readonly unknown[]) => {
    parts.push(OPEN);
    items.forEach((item, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(bytesOf(item));
    });
    parts.push(CLOSE);
  };
  let first = true;
  const member = (name: string) => {
    put(`${first ? '{' : ','}"${name}":`);
    first = false;
  };
  if (body.data !== undefined) {
    member('data');
    if (Array.isArray(body.data)) list(body.data);
    else parts.push(bytesOf(body.data));
  }
  if (body.includes !== undefined) {
    member('includes');
    let firstKind = true;
    for (const [kind, items] of Object.entries(body.includes)) {
      if (items === undefined) continue;
      put(`${firstKind ? '{' : ','}${JSON.stringify(kind)}:`);
      firstKind = false;
      list(items);
    }
    put(firstKind ? '{}' : '}');
  }
  if (body.errors !== undefined) {
    member('errors');
    put(JSON.stringify(body.errors));
  }
  if (body.meta !== undefined) {
    member('meta');
    put(JSON.stringify(body.meta));
  }
  put(first ? '{}' : '}');
  return Buffer.concat(parts);
}
