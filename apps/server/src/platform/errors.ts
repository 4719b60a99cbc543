import { ErrorCode, type ErrorCodeValue, errorMessages } from '@iot/contract';

/** The one application error: a catalogue code (SPEC §8), an optional message and data. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCodeValue,
    message?: string,
    readonly data: unknown = null,
  ) {
    super(message ?? errorMessages[code]);
    this.name = 'AppError';
  }

  /**
   * What a refused command still keeps (e.g. a duplicate registration recorded for
   * product/dev_dup): the transport runs it after the command's transaction has rolled back,
   * then answers the refusal.
   */
  afterRollback?: () => Promise<void>;
}

/** A row outside the caller's scope or absent: both answer "not found" (CONTRACT §5). */
export const notFound = (what: string) => new AppError(406, `${what} does not exist`);
export const badParams = (fields: Record<string, string>, message = 'Wrong parameters') => new AppError(406, message, { fields });
/** Another row already holds this value: 409, the field named so the form shows it there. */
export const exists = (field: string, message: string) => new AppError(ErrorCode.CONFLICT, message, { fields: { [field]: 'exists' } });

/** Unique indexes whose violation has its own catalogue code; any other answers 409. */
const UNIQUE_INDEX_CODES: Record<string, ErrorCodeValue> = {
  app_user_user_id_key: ErrorCode.USER_ID_EXISTS,
  app_user_email_key: ErrorCode.EMAIL_EXISTS,
  app_user_phone_key: ErrorCode.PHONE_EXISTS,
};

/**
 * A unique violation (SQLSTATE 23505) means a concurrent request won the race past a
 * handler's pre-check: answer what the pre-check would have answered, not a 500.
 */
export const uniqueViolationOf = (err: unknown): AppError | null => {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  if (e?.code !== '23505') return null;
  return new AppError(UNIQUE_INDEX_CODES[String(e.constraint)] ?? ErrorCode.CONFLICT);
};
