import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const MB = 1024 * 1024;

/** The node options `npm start` gives the shop: what sits between `node` and the server's bundle. */
function startScriptNodeOptions(): string[] {
  const start = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  const command = /\bnode((?:\s+--[\w-]+(?:=\S+)?)*)\s+build\/app-server\/main\.js/.exec(start);
  expect(command, 'npm start runs node build/app-server/main.js').not.toBeNull();
  return command![1]!.split(/\s+/).filter(Boolean);
}

/** V8's heap limit (old generation plus three young-generation semi-spaces) in a node started with `options`. */
function heapLimitUnder(options: string[]): number {
  // A mistyped flag makes node refuse to start, and this throws.
  const script = "console.log(require('node:v8').getHeapStatistics().heap_size_limit)";
  return Number(execFileSync(process.execPath, [...options, '-e', script], { encoding: 'utf8' }));
}

// ADR 0177: one shop process under load stays under 250 MB resident only if V8 collects its old
// generation before it grows to several times what is alive, and its young generation is smaller.
describe('npm start: the V8 heap limits of ADR 0177', () => {
  const options = startScriptNodeOptions();
  const heapLimit = heapLimitUnder(options);

  it('caps the heap below 1 GB: V8 then lets the old generation outgrow its live part about 1.5 times before a full collection, not 4 times', () => {
    expect(heapLimit).toBeLessThan(1024 * MB);
  });

  it('leaves room for several times the shop’s live heap (about 100 MB under load)', () => {
    expect(heapLimit).toBeGreaterThanOrEqual(512 * MB);
  });

  it('halves the young generation: 8 MB semi-spaces instead of 16', () => {
    const semiSpace = options.find((option) => option.startsWith('--max-semi-space-size='));
    expect(Number(semiSpace?.split('=')[1])).toBe(8);
    const withDefaultYoung = heapLimitUnder(options.filter((option) => option !== semiSpace));
    expect(withDefaultYoung - heapLimit).toBe(3 * 8 * MB);
  });
});
