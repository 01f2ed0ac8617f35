import { Type, type TLiteral, type TObject, type TProperties, type TSchema, type TUnion } from '@sinclair/typebox';

/**
 * Building blocks of the advertising interface's entity declarations. Each entity's wire object is
 * declared once, as a schema beside its converter (its `wire.ts`); the converter's return type is
 * the schema's (so the compiler holds the two together), and the route names it as its answer, which
 * the OpenAPI description (src/ads/http/openapi.ts) shows and the tests validate answers against.
 */

/** An entity object: closed, named for the description's components. */
export function Entity<P extends TProperties>(title: string, description: string, properties: P): TObject<P> {
  return Type.Object(properties, { title, description, additionalProperties: false });
}

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A time as the advertising interface writes it: `2026-11-29T10:00:00Z`. */
export const AdsTime = Type.String({ format: 'date-time' });
/** An ads entity id (short base-36). */
export const AdsId = Type.String({ pattern: '^[0-9a-z]{1,40}$' });
/** A platform user or post id (decimal). */
export const PlatformIdText = Type.String({ pattern: '^[0-9]{1,19}$' });
/** Money in micros of the account's currency. */
export const Micros = Type.Integer({ minimum: 0 });

type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };
/** A field whose values the code holds as a fixed list: their literal union. */
export function OneOf<const T extends readonly string[]>(values: T): TUnion<Literals<T>> {
  return Type.Union(values.map((v) => Type.Literal(v))) as TUnion<Literals<T>>;
}
