import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, InputNumber, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LabelKey } from '../../../lib/labels';

/** One column of a list of objects edited in a form (a version's details, a resource's urls). */
export interface RowColumn {
  name: string;
  label: LabelKey;
  widget?: 'text' | 'number' | 'select' | 'textarea';
  options?: { value: string | number; label: string }[];
  width?: number;
  placeholder?: string;
}

type Item = Record<string, unknown>;

interface RowsEditorProps {
  columns: RowColumn[];
  /** A new row's values. */
  blank: Item;
  addLabel: LabelKey;
  /** What one item is called (its group is named `<label> <n>`). */
  itemLabel: LabelKey;
  /** The form item's value and change handler. */
  value?: Item[];
  onChange?: (value: Item[]) => void;
  disabled?: boolean;
  id?: string;
}

/**
 * Form control for a list of objects: one line of inputs per item, add and remove. The
 * contract checks the whole list on submit; a refused item's field comes back as `details.1.url`.
 */
export const RowsEditor = ({ columns, blank, addLabel, itemLabel, value = [], onChange, disabled, id }: RowsEditorProps) => {
  const { t } = useTranslation();
  const change = (index: number, name: string, v: unknown) =>
    onChange?.(value.map((item, i) => (i === index ? { ...item, [name]: v } : item)));
  return (
    <Space id={id} orientation="vertical" style={{ width: '100%' }} size={8}>
      {value.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: items have no identity of their own; the position is it.
        <Space key={index} wrap align="start" role="group" aria-label={`${t(itemLabel)} ${index + 1}`} style={{ width: '100%' }}>
          {columns.map((c) => {
            const common = { 'aria-label': t(c.label), placeholder: c.placeholder ?? t(c.label), disabled };
            const v = item[c.name];
            if (c.widget === 'number')
              return (
                <InputNumber
                  key={c.name}
                  {...common}
                  min={0}
                  style={{ width: c.width ?? 120 }}
                  value={typeof v === 'number' ? v : undefined}
                  onChange={(n) => change(index, c.name, n ?? 0)}
                />
              );
            if (c.widget === 'select')
              return (
                <Select
                  key={c.name}
                  {...common}
                  style={{ width: c.width ?? 140 }}
                  options={c.options}
                  value={v as string | number | undefined}
                  onChange={(n) => change(index, c.name, n)}
                />
              );
            if (c.widget === 'textarea')
              return (
                <Input.TextArea
                  key={c.name}
                  {...common}
                  autoSize={{ minRows: 1, maxRows: 6 }}
                  style={{ width: c.width ?? 260 }}
                  value={typeof v === 'string' ? v : ''}
                  onChange={(e) => change(index, c.name, e.target.value)}
                />
              );
            return (
              <Input
                key={c.name}
                {...common}
                style={{ width: c.width ?? 160 }}
                value={typeof v === 'string' ? v : ''}
                onChange={(e) => change(index, c.name, e.target.value)}
              />
            );
          })}
          <Button
            icon={<DeleteOutlined />}
            danger
            aria-label={t('common.delete')}
            disabled={disabled}
            onClick={() => onChange?.(value.filter((_, i) => i !== index))}
          />
        </Space>
      ))}
      <Button icon={<PlusOutlined />} disabled={disabled} onClick={() => onChange?.([...value, { ...blank }])}>
        {t(addLabel)}
      </Button>
    </Space>
  );
};
