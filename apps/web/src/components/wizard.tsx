import { Button, Space, Steps } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface WizardStep {
  /** i18n key. */
  title: string;
  content: ReactNode;
  /** Must resolve true (or void) before moving forward; reject/false blocks. */
  validate?: () => Promise<boolean | undefined> | boolean | undefined;
}

export interface WizardProps {
  steps: WizardStep[];
  /** Called after the last step passes its check. */
  onFinish: () => Promise<unknown> | undefined;
  /** i18n key of the last button; default common.done. */
  finishText?: string;
}

/**
 * Steps with a check (SPEC §2): forward only when the current step's check
 * passes; going back, or jumping to any earlier step, is free.
 */
export const Wizard = ({ steps, onFinish, finishText = 'common.done' }: WizardProps) => {
  const { t } = useTranslation();
  const [current, setCurrent] = useState(0);
  const [busy, setBusy] = useState(false);

  const passes = async (index: number) => {
    const check = steps[index]?.validate;
    if (!check) return true;
    try {
      return (await check()) !== false;
    } catch {
      return false;
    }
  };

  const next = async () => {
    setBusy(true);
    try {
      if (!(await passes(current))) return;
      if (current === steps.length - 1) await onFinish();
      else setCurrent(current + 1);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <Steps
        current={current}
        onChange={(i) => {
          if (i < current) setCurrent(i);
        }}
        items={steps.map((s, i) => ({ title: t(s.title), disabled: i > current }))}
        style={{ marginBottom: 24 }}
      />
      <div>{steps[current]?.content}</div>
      <Space style={{ marginTop: 24 }}>
        {current > 0 && <Button onClick={() => setCurrent(current - 1)}>{t('common.previous')}</Button>}
        <Button type="primary" loading={busy} onClick={next}>
          {t(current === steps.length - 1 ? finishText : 'common.next')}
        </Button>
      </Space>
    </div>
  );
};
