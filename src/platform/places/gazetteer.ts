import { Type, type Static } from '@sinclair/typebox';
import type { ResourceDeclaration } from '../../http/fields.js';
import type { View } from '../view.js';

/**
 * Places (issue 34): a small built-in gazetteer, so that `geo.place_id` on a new post, the
 * `geo.place_id` expansion and `place.fields` have something to name and return. The ids are the
 * public platform's own for these places; the bounding boxes are approximate (GeoJSON order:
 * west longitude, south latitude, east longitude, north latitude).
 */

export const PlaceSchema = Type.Object(
  {
    id: Type.String(),
    full_name: Type.String(),
    name: Type.Optional(Type.String()),
    country: Type.Optional(Type.String()),
    country_code: Type.Optional(Type.String()),
    place_type: Type.Optional(Type.String({ enum: ['country', 'admin', 'city', 'neighborhood', 'poi'] })),
    contained_within: Type.Optional(Type.Array(Type.String())),
    geo: Type.Optional(
      Type.Object(
        { type: Type.Literal('Feature'), bbox: Type.Array(Type.Number(), { minItems: 4, maxItems: 4 }), properties: Type.Object({}) },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'Place', additionalProperties: false },
);

export interface Place {
  id: string;
  name: string;
  full_name: string;
  country: string;
  country_code: string;
  place_type: 'country' | 'city';
  contained_within: string[];
  bbox: [number, number, number, number];
}

const US = '96683cc9126741d1';
const FRANCE = 'f3bfc7dcc928977f';
const GERMANY = 'fdcd221ac44fa326';

const PLACES: readonly Place[] = [
  { id: US, name: 'United States', full_name: 'United States', country: 'United States', country_code: 'US', place_type: 'country', contained_within: [], bbox: [-179.231086, 13.182335, 179.859685, 71.434357] },
  { id: FRANCE, name: 'France', full_name: 'France', country: 'France', country_code: 'FR', place_type: 'country', contained_within: [], bbox: [-5.142, 41.333, 9.561, 51.089] },
  { id: GERMANY, name: 'Germany', full_name: 'Germany', country: 'Germany', country_code: 'DE', place_type: 'country', contained_within: [], bbox: [5.866, 47.270, 15.042, 55.099] },
  { id: '5a110d312052166f', name: 'San Francisco', full_name: 'San Francisco, CA', country: 'United States', country_code: 'US', place_type: 'city', contained_within: [US], bbox: [-122.51368188, 37.70813196, -122.35845384, 37.83245301] },
  { id: '01a9a39529b27f36', name: 'Manhattan', full_name: 'Manhattan, NY', country: 'United States', country_code: 'US', place_type: 'city', contained_within: [US], bbox: [-74.026675, 40.683935, -73.910408, 40.877483] },
  { id: '457b4814b4240d87', name: 'London', full_name: 'London, England', country: 'United Kingdom', country_code: 'GB', place_type: 'city', contained_within: [], bbox: [-0.510375, 51.28676, 0.334015, 51.691874] },
  { id: '3078869807f9dd36', name: 'Berlin', full_name: 'Berlin, Germany', country: 'Germany', country_code: 'DE', place_type: 'city', contained_within: [GERMANY], bbox: [13.088304, 52.338079, 13.760909, 52.675323] },
  { id: '7dde0febc9ef245b', name: 'Dublin City', full_name: 'Dublin City, Ireland', country: 'Ireland', country_code: 'IE', place_type: 'city', contained_within: [], bbox: [-6.387438, 53.298749, -6.107854, 53.410917] },
];

const BY_ID = new Map(PLACES.map((p) => [p.id, p]));

/** The place of that id, when the gazetteer has it. */
export function placeById(id: string): Place | undefined {
  return BY_ID.get(id);
}

/**
 * The places a profile's free-text location names, by the gazetteer's names ("London",
 * "Berlin, Germany", "San Francisco, CA"): each named place and the places that contain it.
 */
export function placesNamedIn(location: string): Place[] {
  const text = location.toLowerCase();
  const named = PLACES.filter((p) => new RegExp(`\\b${p.name.toLowerCase()}\\b`).test(text));
  return [...new Set(named.flatMap((p) => [p, ...p.contained_within.flatMap((id) => BY_ID.get(id) ?? [])]))];
}

/** The place object (shared/reference Place): defaults id and full_name, as on the public platform. */
export const placeDeclaration: ResourceDeclaration<Place, View, Static<typeof PlaceSchema>> = {
  resource: 'place',
  fieldsParam: 'place.fields',
  defaults: ['id', 'full_name'],
  fields: {
    id: (p) => p.id,
    full_name: (p) => p.full_name,
    name: (p) => p.name,
    country: (p) => p.country,
    country_code: (p) => p.country_code,
    place_type: (p) => p.place_type,
    contained_within: (p) => (p.contained_within.length > 0 ? p.contained_within : undefined),
    geo: (p) => ({ type: 'Feature' as const, bbox: p.bbox, properties: {} }),
  },
};
