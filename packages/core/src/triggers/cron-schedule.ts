/**
 * A schedule trigger's cron expression and time zone: checked when it is saved (with an
 * error that names the field at fault) and turned into its next fire times for the page.
 * Five fields (minute hour day month weekday) or six (seconds first), as BullMQ reads them.
 */
import { CronExpressionParser } from "cron-parser";
import { AppError } from "../errors/app-error";

const FIELDS_5 = ["minute", "hour", "day of month", "month", "day of week"];
const FIELDS_6 = ["second", ...FIELDS_5];

const invalid = (message: string, path: "cron" | "timezone") =>
  new AppError("USER.TRIGGER.INVALID_SCHEDULE", message, { location: { path } });

/** Throws USER.TRIGGER.INVALID_SCHEDULE naming the time zone when it is not an IANA zone. */
const checkTimeZone = (timezone: string) => {
  try {
    if (timezone.trim() === "") throw new RangeError("empty");
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
  } catch {
    throw invalid(
      `"${timezone}" is not an IANA time zone (for example UTC or Europe/Paris)`,
      "timezone",
    );
  }
};

const tryParse = (expression: string, timezone: string) => {
  try {
    return { ok: CronExpressionParser.parse(expression, { tz: timezone, strict: false }) } as const;
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) } as const;
  }
};

/**
 * Throws USER.TRIGGER.INVALID_SCHEDULE for a bad expression or zone; the message names the
 * field (for example "hour: got value 25 expected range 0-23").
 */
export const checkSchedule = (cron: string, timezone: string) => {
  checkTimeZone(timezone);
  const fields = cron.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5 && fields.length !== 6) {
    throw invalid(
      `a cron expression has 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first); got ${fields.length}`,
      "cron",
    );
  }
  const names = fields.length === 6 ? FIELDS_6 : FIELDS_5;
  fields.forEach((field, i) => {
    const alone = fields.map((f, j) => (j === i ? f : "*")).join(" ");
    const parsed = tryParse(alone, "UTC");
    if ("error" in parsed) throw invalid(`${names[i]} field "${field}": ${parsed.error}`, "cron");
  });
  const whole = tryParse(fields.join(" "), timezone);
  if ("error" in whole) throw invalid(`cron "${cron}": ${whole.error}`, "cron");
  try {
    whole.ok.next();
  } catch {
    throw invalid(`cron "${cron}" never fires`, "cron");
  }
  return fields.join(" ");
};

/** The next `count` times a valid schedule fires after `from`. */
export const nextFireTimes = (
  cron: string,
  timezone: string,
  count: number,
  from: Date = new Date(),
): Date[] => {
  const it = CronExpressionParser.parse(cron.trim(), {
    tz: timezone,
    currentDate: from,
    strict: false,
  });
  const times: Date[] = [];
  for (let i = 0; i < count && it.hasNext(); i++) times.push(it.next().toDate());
  return times;
};
