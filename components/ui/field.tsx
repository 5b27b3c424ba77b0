/**
 * A form field: its label, one control, a hint and an error. The label wraps the control (it names
 * it without an id); the hint and the error are tied to it by `aria-describedby`, and an error
 * marks it `aria-invalid`. Server-safe (`useId` works in server components).
 */
import {
  cloneElement,
  type AriaAttributes,
  isValidElement,
  useId,
  type LabelHTMLAttributes,
  type ReactElement,
  type ReactNode,
} from 'react';

// A control inside the label sits a little below its words.
const LABEL = 'block text-sm font-medium text-ink [&>:is(input,select,textarea)]:mt-1';
const HINT = 'mt-1 text-xs text-muted';
const ERROR = 'mt-1 text-sm font-medium text-bad-text';

export function Field({
  label,
  hint,
  error,
  className,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  className?: string;
  /** The one control (`Input`, `Select`, `Textarea`). */
  children: ReactElement<Pick<AriaAttributes, 'aria-describedby' | 'aria-invalid'>>;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const control = isValidElement(children)
    ? cloneElement(children, {
        'aria-describedby': described || undefined,
        'aria-invalid': error ? true : undefined,
      })
    : children;
  return (
    <div className={className}>
      <label className={LABEL}>
        {label}
        {control}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className={HINT}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={ERROR}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The field's label alone: around a control with words of its own beside it, or naming one by
 * `htmlFor` (a filter's select), where `Field`'s single-control wiring does not fit.
 */
export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={className ? `${LABEL} ${className}` : LABEL} {...props} />;
}
