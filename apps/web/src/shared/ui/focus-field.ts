/** Brings a form's field (the first one in error) into view and focuses it, rather than toasting over the form. */
export function focusField(input: Element | null) {
  if (!(input instanceof HTMLElement)) return;
  // Not every engine has it (jsdom, some older WebViews): focusing still shows the field.
  if (typeof input.scrollIntoView === 'function') input.scrollIntoView({ block: 'center' });
  input.focus({ preventScroll: true });
}
