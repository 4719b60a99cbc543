/**
 * The error catalogue of SPEC §8 as one table. The server throws AppError(code);
 * the web translates by code (`errors.<code>` i18n keys). HTTP status is 200 for
 * every application error (CONTRACT §1) except the transport-level ones below.
 */
export const ErrorCode = {
  OK: 200,
  UNAUTHORIZED: 401,
  NOT_FOUND_PATH: 404,
  BAD_PARAMS: 406,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  BALANCE_LOW_GIVE: 416,
  TOO_MANY_REQUESTS: 429,
  SERVER_ERROR: 500,
  WRONG_PASSWORD: 512,
  NO_PERMISSION: 513,
  WRONG_ACCOUNT: 514,
  NOT_UNIQUE: 515,
  NO_COMPANY: 516,
  ACCOUNT_DISABLED: 517,
  ACCOUNT_EXPIRED: 518,
  UNKNOWN_STATE: 519,
  CDK_ENV: 1010,
  GOODS_HAS_ORDER: 1024,
  USER_ID_EXISTS: 1101,
  EMAIL_EXISTS: 1102,
  PHONE_EXISTS: 1103,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeName];

/** Default English message per code; the web has translated ones under `errors.<code>`. */
export const errorMessages: Record<ErrorCodeValue, string> = {
  200: 'OK',
  401: 'Authentication failed, please log in again',
  404: 'Unknown API path',
  406: 'Wrong parameters',
  409: 'Data already exists, change and resubmit',
  413: 'Request body too large',
  416: 'Balance insufficient to give',
  429: 'Too many attempts, try again later',
  500: 'Server problem',
  512: 'Wrong password',
  513: 'No permission',
  514: 'Wrong account or password',
  515: 'Account ID not unique',
  516: 'Account lacks linked company info',
  517: 'Account disabled',
  518: 'Account expired',
  519: 'Unknown status type',
  1010: 'Activation code not usable in this environment',
  1024: 'Delete failed because an order exists for the goods',
  1101: 'User ID already exists',
  1102: 'Email already exists',
  1103: 'Phone already exists',
};

/** Transport-level answers that carry a non-200 HTTP status (CONTRACT §1). */
export const httpStatusOf = (code: number): number => {
  if (code === ErrorCode.NOT_FOUND_PATH) return 404;
  if (code === ErrorCode.PAYLOAD_TOO_LARGE) return 413;
  return 200;
};
