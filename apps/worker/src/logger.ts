/**
 * Structured JSON log lines on stderr, one per event.
 */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof LEVELS;
export type Logger = Record<LogLevel, (msg: string, fields?: Record<string, unknown>) => void>;

export const createLogger = (level: LogLevel, base: Record<string, unknown> = {}): Logger => {
  const emit =
    (l: LogLevel) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (LEVELS[l] < LEVELS[level]) return;
      process.stderr.write(
        `${JSON.stringify({ time: new Date().toISOString(), level: l, msg, ...base, ...fields })}\n`,
      );
    };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
};
