// Golden transcripts: each scenario runs commands in order on a seeded lab and compares stdout,
// stderr and exit codes with testdata/<scenario>.golden. After checking a change by eye against
// FIDELITY.md, refresh with UPDATE_GOLDEN=1.

import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createLab } from '../lab';
import type { SimLab } from '../lab';
import { createTerminal } from './terminal';
import type { Terminal } from './terminal';
import { SCENARIOS } from './testdata/scenarios';

const DIR = join(__dirname, 'testdata');

function transcript(t: Terminal, lab: SimLab, steps: (string | number)[]): string {
  let out = '';
  for (const step of steps) {
    if (typeof step === 'number') {
      lab.advance(step);
      out += `# (${step} ms pass)\n`;
      continue;
    }
    const r = t.exec(step);
    out += `$ ${step}\n${r.stdout}`;
    if (r.stderr) out += `--- stderr\n${r.stderr}`;
    out += `--- exit ${r.exitCode}\n`;
  }
  return out;
}

describe('golden transcripts', () => {
  for (const s of SCENARIOS) {
    it(
      `should print exactly the ${s.name} transcript when the commands run in order`,
      { timeout: 60_000 },
      () => {
        const lab = createLab({ seed: 11, startTime: '2026-01-05T09:00:00Z', ...(s.lab ?? {}) });
        const t = createTerminal(lab, { files: s.files });
        const got = transcript(t, lab, s.steps);
        const file = join(DIR, `${s.name}.golden`);
        if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) writeFileSync(file, got);
        expect(got).toBe(readFileSync(file, 'utf8'));
      },
    );
  }
});
