import { CalendarOutlined } from '@ant-design/icons';
import { ConfigProvider, Input, theme } from 'antd';
import { isDayjs } from 'dayjs';
import { useContext, useState } from 'react';

type Pickers = typeof import('./date-pickers');

/** Loaded once per page load, shared by every date field. */
let pickers: Pickers | undefined;
let loading: Promise<Pickers> | undefined;
const loadPickers = (): Promise<Pickers> => {
  loading ??= import('./date-pickers').then(
    (m) => {
      pickers = m;
      return m;
    },
    (err: unknown) => {
      loading = undefined; // a failed chunk load is tried again on the next touch
      throw err;
    },
  );
  return loading;
};

const dayText = (v: unknown) => (isDayjs(v) ? v.format('YYYY-MM-DD') : '');

interface DateInputProps {
  /** Two dates (start, end) instead of one. */
  range?: boolean;
  id?: string;
  value?: unknown;
  disabled?: boolean | undefined;
  [prop: string]: unknown;
}

/**
 * A date (or date range) field whose picker code loads when the field is first pointed at,
 * touched or focused: a list's date filters no longer cost every table page the picker.
 * Until then it shows an input of the same size with the picker's placeholder and the value;
 * the real picker then takes its place, focused (and open, after a click) when the user was
 * already in it. Form.Item's value, onChange and id pass through unchanged.
 */
export const DateInput = ({ range = false, ...props }: DateInputProps) => {
  const [loaded, setLoaded] = useState<Pickers | undefined>(pickers);
  const [entered, setEntered] = useState<'focus' | 'open' | null>(null);
  const { locale } = useContext(ConfigProvider.ConfigContext);
  const { token } = theme.useToken();

  if (loaded) {
    const Picker = range ? loaded.DateRangeField : loaded.DateField;
    // `entered` only matters on the render that swaps the placeholder for the picker.
    const reenter = entered ? { autoFocus: true, defaultOpen: entered === 'open' } : {};
    return <Picker {...(props as object)} {...reenter} style={{ width: '100%' }} />;
  }

  const load = (how: 'focus' | 'open' | null) => {
    if (how) setEntered((was) => (was === 'open' ? was : how));
    loadPickers().then(setLoaded, () => undefined);
  };
  const lang = locale?.DatePicker?.lang;
  const value = props.value;
  const text = range ? (Array.isArray(value) && value.some(isDayjs) ? value.map(dayText).join(' → ') : '') : dayText(value);
  return (
    <Input
      id={props.id}
      disabled={props.disabled}
      readOnly
      value={text}
      placeholder={range ? (lang?.rangePlaceholder ?? []).join(' → ') : lang?.placeholder}
      suffix={<CalendarOutlined aria-hidden style={{ color: token.colorTextQuaternary }} />}
      onPointerEnter={() => load(null)}
      onPointerDown={() => load('open')}
      onFocus={() => load('focus')}
      // Left before the picker arrived: it must not take the focus back.
      onBlur={() => setEntered(null)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') load('open');
      }}
    />
  );
};
