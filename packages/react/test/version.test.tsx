import { useState, version } from 'react';
import { version as domVersion } from 'react-dom';
import { renderToString, version as serverVersion } from 'react-dom/server';
import { cleanup, render } from '@testing-library/react';
import { afterEach, expect, inject, test } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The React line the project runs, e.g. `18.` (vitest.config.ts). */
    react: string;
  }
}

afterEach(cleanup);

test('the project runs the React line it is named after, with a react-dom of the same copy', () => {
  expect(version.startsWith(inject('react')), version).toBe(true);
  expect([domVersion, serverVersion]).toEqual([version, version]);
});

test('@testing-library/react renders with the same React copy', () => {
  // With another copy of react-dom, the element or the hook call would be refused.
  function Counter() {
    const [n] = useState(version);
    return <p>{n}</p>;
  }
  expect(render(<Counter />).container.innerHTML).toBe(`<p>${version}</p>`);
  expect(renderToString(<Counter />)).toBe(`<p>${version}</p>`);
});
