import dayjs from 'dayjs';

/** Unix seconds (wire format, CONTRACT §1) → local date-time text; 0/empty → ''. */
export const formatTime = (unix: unknown, pattern = 'YYYY-MM-DD HH:mm:ss'): string => {
  const n = Number(unix);
  return Number.isFinite(n) && n > 0 ? dayjs.unix(n).format(pattern) : '';
};
