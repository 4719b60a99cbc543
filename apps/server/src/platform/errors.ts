import { type ErrorCodeValue, errorMessages } from '@iot/contract';

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
}

/** A row outside the caller's scope or absent: both answer "not found" (CONTRACT §5). */
export const notFound = (what: string) => new AppError(406, `${what} does not exist`);
export const badParams = (fields: Record<string, string>, message = 'Wrong parameters') => new AppError(406, message, { fields });
