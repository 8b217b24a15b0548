// The small interpreters behind the new output flags: go-template, --sort-by's natural order,
// and wait's Go durations.

import { describe, expect, it } from 'vitest';
import { executeGoTemplate, goTemplateParseError, GoTemplateError } from './go-template';
import { naturalLess, sortByField } from './get-sort';
import { parseGoDuration } from './wait-cmd';
import { unifiedHunks } from './unified-diff';

const list = {
  kind: 'List',
  items: [
    { metadata: { name: 'b', labels: { app: 'x' } }, status: { phase: 'Running' } },
    { metadata: { name: 'a' }, status: { phase: 'Pending' } },
  ],
};

describe('go-template', () => {
  it('should range over items and print fields when the template uses range and quotes', () => {
    expect(executeGoTemplate('{{range .items}}{{.metadata.name}}{{"\\n"}}{{end}}', list)).toBe(
      'b\na\n',
    );
  });

  it('should print <no value> and Go map syntax when a key is missing or a map is printed', () => {
    expect(executeGoTemplate('{{(index .items 0).metadata.labels}} {{.nope}}', list)).toBe(
      'map[app:x] <no value>',
    );
  });

  it('should pick the branch of if/else if/else when conditions use eq', () => {
    const tpl =
      '{{range .items}}{{if eq .status.phase "Running"}}up{{else if eq .status.phase "Pending"}}wait{{else}}down{{end}} {{end}}';
    expect(executeGoTemplate(tpl, list)).toBe('up wait ');
  });

  it('should bind range variables and pipe into functions when asked to', () => {
    expect(
      executeGoTemplate(
        '{{range $i, $p := .items}}{{$i}}:{{$p.metadata.name}} {{end}}{{.items | len}}',
        list,
      ),
    ).toBe('0:b 1:a 2');
    expect(executeGoTemplate('{{printf "%-3s|%d" "ab" 7}}', {})).toBe('ab |7');
    expect(executeGoTemplate('{{.data.k | base64decode}}', { data: { k: 'aGVsbG8=' } })).toBe(
      'hello',
    );
  });

  it('should report a parse error when an action is not closed', () => {
    expect(goTemplateParseError('{{.items')).toMatch(/unclosed action/);
    expect(goTemplateParseError('{{range .items}}')).toMatch(/unexpected EOF/);
    expect(goTemplateParseError('{{.a}}')).toBeUndefined();
  });

  it('should throw when a field is taken from a string', () => {
    expect(() => executeGoTemplate('{{.a.b}}', { a: 's' })).toThrow(GoTemplateError);
  });
});

describe('sort-by', () => {
  it('should order digit runs by value when names carry numbers', () => {
    expect(naturalLess('pod-9', 'pod-10')).toBe(true);
    expect(naturalLess('pod-10', 'pod-9')).toBe(false);
    expect(naturalLess('a', 'b')).toBe(true);
  });

  it('should put objects without the field first and fail when no object has it', () => {
    const objs = [{ n: 3 }, {}, { n: 1 }];
    expect(sortByField(objs, '.n', (o) => o)).toEqual([{}, { n: 1 }, { n: 3 }]);
    expect(sortByField(objs, '.x', (o) => o)).toBe(
      'couldn\'t find any field with path "{.x}" in the list of objects',
    );
  });
});

describe('wait --timeout', () => {
  it('should read Go durations when given units and reject bare numbers other than 0', () => {
    expect(parseGoDuration('30s')).toBe(30_000);
    expect(parseGoDuration('1m30s')).toBe(90_000);
    expect(parseGoDuration('1.5h')).toBe(5_400_000);
    expect(parseGoDuration('-1s')).toBe(-1000);
    expect(parseGoDuration('0')).toBe(0);
    expect(parseGoDuration('30')).toBeUndefined();
    expect(parseGoDuration('abc')).toBeUndefined();
  });
});

describe('unified diff', () => {
  it('should print GNU diff -u hunks with three lines of context when lines change', () => {
    const a = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
    const b = 'a\nb\nc\nd\nE\nf\ng\nh\ni\nj\nk\n';
    expect(unifiedHunks(a, b)).toBe(
      '@@ -2,9 +2,10 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n i\n j\n+k\n',
    );
  });

  it('should number an empty side as line 0 and print nothing when texts are equal', () => {
    expect(unifiedHunks('', 'x\ny\n')).toBe('@@ -0,0 +1,2 @@\n+x\n+y\n');
    expect(unifiedHunks('x\n', 'x\n')).toBe('');
  });
});
