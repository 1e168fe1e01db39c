/**
 * The moments the product stores and compares in PostgreSQL: years 0001 to 9999, in UTC. A
 * date outside them (year 0, before Christ, past 9999, which JavaScript's Date holds and
 * ISO 8601 with an offset can name) makes the query that carries it fail ("date/time field
 * value out of range"), so every date a caller gives, a filter or a cursor, is checked
 * against this first and refused as bad input.
 */
const MIN = Date.parse("0001-01-01T00:00:00.000Z");
const MAX = Date.parse("9999-12-31T23:59:59.999Z");

/** What a refusal says the date must be. */
export const STORABLE_TIME_RANGE = "between 0001-01-01 and 9999-12-31 (UTC)";

export const isStorableTime = (date: Date) => {
  const t = date.getTime();
  return Number.isFinite(t) && t >= MIN && t <= MAX;
};
