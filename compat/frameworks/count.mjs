/**
 * A node:test reporter of one line, after the dot reporter's dots (and its failures): how many
 * checks passed and failed (tests, not the suites that group them).
 */
export default async function* count(source) {
  const counts = { pass: 0, fail: 0, skip: 0 };
  for await (const { type, data } of source) {
    if (data?.details?.type === 'suite') continue;
    if (type === 'test:pass') counts[data.skip || data.todo ? 'skip' : 'pass']++;
    else if (type === 'test:fail') counts.fail++;
  }
  yield `test:frameworks: ${counts.pass} checks passed, ${counts.fail} failed${counts.skip ? `, ${counts.skip} skipped` : ''}\n`;
}
