import { DatePicker } from 'antd';

/**
 * The real date widgets (rc-picker and its dayjs plugins, ~25 KiB): only date-input.tsx imports
 * this file, on demand.
 */
export const DateField = DatePicker;
export const DateRangeField = DatePicker.RangePicker;
