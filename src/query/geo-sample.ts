/**
 * The two computations the matcher and the SQL compiler must do alike.
 *
 * Distance: an equirectangular approximation, exact enough within point_radius's 25 miles and
 * expressible in plain SQL arithmetic (no trigonometry in SQLite), so both back-ends agree.
 */
const KM_PER_DEGREE_LAT = 110.574;
const KM_PER_DEGREE_LON_AT_EQUATOR = 111.32;

export function lonScale(lat: number): number {
  return KM_PER_DEGREE_LON_AT_EQUATOR * Math.cos((lat * Math.PI) / 180);
}

export function distanceKm(lon0: number, lat0: number, lon: number, lat: number): number {
  const dx = (lon - lon0) * lonScale(lat0);
  const dy = (lat - lat0) * KM_PER_DEGREE_LAT;
  return Math.sqrt(dx * dx + dy * dy);
}

export { KM_PER_DEGREE_LAT };

/** distanceKm(...) <= km, computed as the SQL compiler computes it (squares, no square root). */
export function withinRadius(lon0: number, lat0: number, km: number, lon: number, lat: number): boolean {
  const sx = lonScale(lat0);
  return ((lon - lon0) * sx) * ((lon - lon0) * sx) + ((lat - lat0) * KM_PER_DEGREE_LAT) * ((lat - lat0) * KM_PER_DEGREE_LAT) <= km * km;
}

/**
 * sample:N keeps a post when its bucket (0-99) is below N: the last two digits of its id, which
 * for time-ordered ids spread evenly, and which SQL reads as `CAST(substr(id, -2) AS integer)`.
 */
export function sampleBucket(id: string): number {
  return Number(id.slice(-2));
}
