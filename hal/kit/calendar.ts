// The module clock's calendar, for both HALs: proleptic Gregorian arithmetic on day numbers (H. Hinnant's
// civil-from-days), exact for the clock's whole year range 0..4095 (Date.UTC is not used: it maps years
// 0..99 to 1900..1999), and the one rule for setting a field (setField).

import { ApiError, aErrMode } from './errors';

export interface CivilTime {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
  hour: number;
  minute: number;
  second: number;
  ms: number;
}

const DAY_MS = 86_400_000;

export function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromMs(ms: number): CivilTime {
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  return { year, month, day, hour, minute, second, ms: rest - second * 1000 };
}

export function msFromCivil(t: CivilTime): number {
  return daysFromCivil(t.year, t.month, t.day) * DAY_MS + t.hour * 3_600_000 + t.minute * 60_000 + t.second * 1000 + t.ms;
}

/** The clock fields a PUT sets, in CivilTime's names. */
export type ClockField = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';

/**
 * Set one field of `t`, keeping the others (the route table bounds each: year 0..4095, month 1..12,
 * day 1..31...). A day the month set now lacks is 409 aErrMode saying what to change; moving month or
 * year under a day the new month lacks (Jan 31 -> Feb) keeps the month asked for and takes its last
 * day, as an RTC that validates its date registers does.
 */
export function setField(t: CivilTime, field: ClockField, value: number): void {
  t[field] = value;
  const last = daysInMonth(t.year, t.month);
  if (field === 'day' && value > last) {
    throw new ApiError(aErrMode, `day ${value} does not exist in ${t.year}-${t.month < 10 ? '0' : ''}${t.month} (1..${last}); set month (and year) first`);
  }
  if (t.day > last) t.day = last;
}
