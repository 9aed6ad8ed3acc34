import { VERSION } from '@angular/core';
import { expect, inject, test } from 'vitest';

// Which Angular this project runs (vitest.config.ts provides the line it means): the package's
// own 21, or compat/angular20's 20 linking the same build.
test('runs the Angular line of its project', () => {
  expect(`${VERSION.major}.`).toBe(inject('angular' as never));
});
