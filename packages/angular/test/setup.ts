// Angular's test environment for the tests of this package: Vitest with jsdom, the built package
// (dist: the partially compiled code users install) compiled at run time by Angular's JIT
// compiler, as the test host components are. setupZoneless.ts and setupZone.ts choose the
// change detection.
import '@angular/compiler';
import { getTestBed } from '@angular/core/testing';
import { BrowserTestingModule, platformBrowserTesting } from '@angular/platform-browser/testing';
import { afterEach } from 'vitest';

// (Not in the server rendering test, which runs in Node without a DOM.)
if (typeof document != 'undefined') {
  getTestBed().initTestEnvironment(BrowserTestingModule, platformBrowserTesting());
  // TestBed resets itself (destroying each test's components) only where the test runner's
  // globals are (Jasmine, `ng test`); Vitest's are not, so it is reset here.
  afterEach(() => getTestBed().resetTestingModule());
}
