import { afterEach, describe, expect, it, vi } from 'vitest';
import { focusField } from './focus-field';

describe('focusField', () => {
  afterEach(() => document.body.replaceChildren());

  it('scrolls the field to the centre, then focuses it without scrolling again', () => {
    const input = document.body.appendChild(document.createElement('input'));
    const scroll = vi.fn();
    input.scrollIntoView = scroll;
    const focus = vi.spyOn(input, 'focus');
    focusField(input);
    expect(scroll).toHaveBeenCalledWith({ block: 'center' });
    expect(focus).toHaveBeenCalledWith({ preventScroll: true });
    expect(document.activeElement).toBe(input);
  });

  it('still focuses where the engine cannot scroll an element into view, and ignores a missing field', () => {
    const input = document.body.appendChild(document.createElement('textarea'));
    Object.defineProperty(input, 'scrollIntoView', { value: undefined });
    focusField(input);
    expect(document.activeElement).toBe(input);
    expect(() => focusField(null)).not.toThrow();
  });
});
