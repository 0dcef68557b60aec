import { expect, test } from 'vitest';
import { render } from '@testing-library/react';
import { Highlight } from './highlight';

test('marks every case-insensitive occurrence and keeps the text', () => {
  const { container } = render(<Highlight text="WONG Wai wong" keyword="Wong" />);
  expect(container.textContent).toBe('WONG Wai wong');
  expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['WONG', 'wong']);
});

test('treats the keyword literally (no regular-expression surprises)', () => {
  const { container } = render(<Highlight text="+852 9123 ****" keyword="+852" />);
  expect(container.querySelector('mark')?.textContent).toBe('+852');
  const empty = render(<Highlight text="abc" keyword="  " />);
  expect(empty.container.querySelector('mark')).toBeNull();
});
