import { afterEach, beforeEach, expect, jest, test } from '@jest/globals';
import { embedDashboard, type EmbedHandle } from '@platform-embed/core';
import { installFakePlatform, type FakePlatform } from '@platform-embed/core/testing';

/*
 * The testing kit's answers to a test's mistakes, under Jest in CommonJS with its default test
 * timeout (5 s): a wait that finds no embed ends first, with the kit's message; an event the
 * catalog refuses is refused at the caller; a second install says to uninstall.
 */

let fake: FakePlatform;
let embed: EmbedHandle | undefined;
beforeEach(() => {
  document.body.innerHTML = '<div id="c"></div>';
  fake = installFakePlatform();
});
afterEach(() => {
  embed?.destroy();
  embed = undefined;
  fake.uninstall();
  jest.restoreAllMocks();
});

test("nothing mounts: fake.next() rejects with the kit's message before Jest's default test timeout", async () => {
  await expect(fake.next()).rejects.toThrow(/no embed mounted within 3000 ms: render the component first/);
});

test('an emit() the catalog refuses rejects at the caller, saying what is wrong', async () => {
  embed = embedDashboard({ container: '#c', baseUrl: 'https://acme.platform.example', publicId: 'sales', session: fake.createSession() });
  const mounted = await fake.ready();
  await expect(mounted.emit('drilldown', { member: 42 } as never)).rejects.toThrow('"member" must be string (got 42)');
});

test('a second installFakePlatform() without uninstall() warns', () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  fake = installFakePlatform();
  expect(warn).toHaveBeenCalledWith(expect.stringContaining('call fake.uninstall() after each test'));
});
