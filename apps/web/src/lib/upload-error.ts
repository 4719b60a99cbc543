/**
 * SPEC §8: upload transport errors are mapped by the trailing HTTP status in
 * the error text (e.g. "Request failed with status code 406") to a message key
 * under `errors.`.
 */
export type UploadErrorKey = 'http_error_514' | 'invalid' | 'http_error_500' | 'error_code_406' | 'http_error_513' | 'unknown_error';

export const uploadErrorKey = (error: unknown): UploadErrorKey => {
  const text = typeof error === 'number' ? String(error) : error instanceof Error ? error.message : String(error ?? '');
  const status = /(\d{3})\s*$/.exec(text.trim())?.[1];
  switch (status) {
    case '401':
    case '405':
    case '518':
      return 'http_error_514';
    case '400':
      return 'invalid';
    case '500':
      return 'http_error_500';
    case '406':
      return 'error_code_406';
    case '513':
      return 'http_error_513';
    default:
      return 'unknown_error';
  }
};
