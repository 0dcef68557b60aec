import type { ButtonHTMLAttributes, MouseEvent, ReactNode } from 'react';

/**
 * One choice among a few, as a row of buttons (a radio group to assistive technology), styled by the caller (`className`,
 * `itemClassName`, `<itemClassName>--on`); each takes a tap over 44×44 px (`ba-hit`).
 */
export function RadioButtons<V extends string>({
  label,
  options,
  value,
  onChange,
  className,
  itemClassName,
  render = (option) => option,
  itemProps,
  testId,
}: {
  /** Names the group for screen readers. */
  label: string;
  options: readonly V[];
  value: V;
  onChange: (value: V, event: MouseEvent<HTMLButtonElement>) => void;
  className: string;
  itemClassName: string;
  render?: (option: V) => ReactNode;
  itemProps?: (option: V) => ButtonHTMLAttributes<HTMLButtonElement>;
  testId?: string;
}) {
  return (
    <div className={className} role="radiogroup" aria-label={label} data-testid={testId}>
      {options.map((option) => (
        <button
          {...itemProps?.(option)}
          key={option}
          type="button"
          role="radio"
          aria-checked={option === value}
          className={option === value ? `${itemClassName} ${itemClassName}--on ba-hit` : `${itemClassName} ba-hit`}
          onClick={(event) => onChange(option, event)}
        >
          {render(option)}
        </button>
      ))}
    </div>
  );
}
