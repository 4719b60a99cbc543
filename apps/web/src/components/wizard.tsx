import { Button, Form, type FormInstance, type FormProps, Space, Steps } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface WizardStep {
  /** i18n key. */
  title: string;
  content: ReactNode;
  /**
   * With a `form`: the names of this step's fields. They are validated by the
   * step's check, and a field error the finish reports brings the user back here.
   */
  fields?: string[];
  /** An extra check after the fields: must resolve true (or void); reject/false blocks. */
  validate?: () => Promise<boolean | undefined> | boolean | undefined;
}

/** Field name → message, e.g. the `data.fields` of a 406 answer, translated. */
export type WizardFieldErrors = Record<string, string>;

export interface WizardProps {
  steps: WizardStep[];
  /**
   * Called once every step passes its check. May resolve field errors: they are
   * shown on their fields and the wizard goes back to the first step holding one.
   */
  onFinish: () => Promise<WizardFieldErrors | undefined> | undefined;
  /** i18n key of the last button; default common.done. */
  finishText?: string;
  /**
   * One antd Form around every step: visited steps stay mounted (hidden when not
   * current), so values and errors are kept when moving between steps.
   */
  form?: FormInstance;
  /** Props of that Form (name, layout, initialValues…). */
  formProps?: Omit<FormProps, 'form' | 'component' | 'onFinish' | 'children'>;
  /** Accessible name of the wizard (i18n key); default: the current step's title. */
  label?: string;
}

/**
 * Steps with a check (SPEC §2): moving forward (Next, or a later step already
 * visited) needs every step before the target to pass its check; going back to
 * any earlier step is free. Steps not visited yet cannot be jumped to.
 * Enter in a field is Next.
 */
export const Wizard = ({ steps, onFinish, finishText = 'common.done', form, formProps, label }: WizardProps) => {
  const { t } = useTranslation();
  const [current, setCurrent] = useState(0);
  /** The furthest step visited. */
  const [reached, setReached] = useState(0);
  const [busy, setBusy] = useState(false);
  /** Guards a second move started before the first one re-rendered (double click). */
  const moving = useRef(false);
  /** The finish is running: the form is disabled. */
  const [submitting, setSubmitting] = useState(false);
  /** A field to scroll to and focus once its step shows. */
  const [focus, setFocus] = useState<string | null>(null);

  useEffect(() => {
    if (!focus || !form || submitting) return;
    form.scrollToField(focus, { block: 'center', focus: true });
    setFocus(null);
  }, [focus, form, submitting]);

  const passes = async (index: number) => {
    const step = steps[index];
    if (!step) return true;
    try {
      if (form && step.fields?.length) await form.validateFields(step.fields);
      return !step.validate || (await step.validate()) !== false;
    } catch (err) {
      const first = (err as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0]?.name[0];
      if (typeof first === 'string') setFocus(first);
      return false;
    }
  };

  const go = (index: number) => {
    setCurrent(index);
    setReached((r) => Math.max(r, index));
  };

  /** Checks the steps before `target` in order; stops on (and shows) the first that fails. */
  const checkUpTo = async (target: number) => {
    for (let i = 0; i < target; i++) {
      if (!(await passes(i))) {
        if (i !== current) go(i);
        return false;
      }
    }
    return true;
  };

  const showFieldErrors = (errors: WizardFieldErrors) => {
    const names = Object.keys(errors);
    if (names.length === 0) return;
    form?.setFields(names.map((name) => ({ name, errors: [errors[name] ?? ''] })));
    const index = steps.findIndex((s) => s.fields?.some((f) => names.includes(f)));
    if (index < 0) return;
    go(index);
    setFocus(steps[index]?.fields?.find((f) => names.includes(f)) ?? null);
  };

  const forward = async (target: number) => {
    if (moving.current) return;
    moving.current = true;
    setBusy(true);
    try {
      if (!(await checkUpTo(target))) return;
      if (target < steps.length) go(target);
      else {
        setSubmitting(true);
        const errors = await onFinish();
        if (errors) showFieldErrors(errors);
      }
    } finally {
      moving.current = false;
      setBusy(false);
      setSubmitting(false);
    }
  };

  const moveTo = (index: number) => {
    if (moving.current || index === current || index > reached) return;
    if (index < current) setCurrent(index);
    else void forward(index);
  };

  const last = current === steps.length - 1;
  const body = (
    <form
      noValidate
      aria-label={t(label ?? steps[current]?.title ?? '')}
      onSubmit={(e) => {
        e.preventDefault();
        void forward(current + 1);
      }}
    >
      <Steps
        current={current}
        onChange={moveTo}
        items={steps.map((s, i) => ({ title: t(s.title), disabled: i > reached }))}
        style={{ marginBottom: 24 }}
      />
      {steps.map((s, i) =>
        // Visited steps stay mounted so the form keeps their fields (values, errors, checks).
        i <= reached || i === current ? (
          <section key={s.title} aria-label={t(s.title)} hidden={i !== current}>
            {s.content}
          </section>
        ) : null,
      )}
      <Space style={{ marginTop: 24 }}>
        {current > 0 && (
          <Button onClick={() => setCurrent(current - 1)} disabled={busy}>
            {t('common.previous')}
          </Button>
        )}
        {/*
          Only a slow finish spins: antd's spinner, started and stopped within a frame or two (a quick
          check or answer), can stay on screen after its loading ends.
        */}
        <Button type="primary" htmlType="submit" loading={submitting ? { delay: 300 } : false}>
          {t(last ? finishText : 'common.next')}
        </Button>
      </Space>
    </form>
  );

  if (!form) return body;
  return (
    <Form {...formProps} form={form} component={false} disabled={submitting || formProps?.disabled}>
      {body}
    </Form>
  );
};
